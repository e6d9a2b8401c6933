import { existsSync, statSync } from 'node:fs';
import { join, normalize, relative, isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { appOrigin } from './ipc-names';

/**
 * Maps an app:// URL to a file of the built renderer. Files that exist are served; any other path
 * inside the app falls back to index.html so deep links work; a path that escapes the renderer
 * folder, or another origin, gets null (refused).
 */
export function resolveRendererFile(requestUrl: string, rendererDir: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (`${url.protocol}//${url.host}` !== appOrigin) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const candidate = normalize(join(rendererDir, pathname));
  const inside = relative(rendererDir, candidate);
  if (inside.startsWith('..') || isAbsolute(inside)) return null;
  if (inside !== '' && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return join(rendererDir, 'index.html');
}

/**
 * The renderer's Content-Security-Policy. The built renderer (vite) has no inline script and no
 * eval; Blueprint's icon fonts are files and its CSS uses data: SVG images; index.html sets
 * <base href="/">. The renderer reaches the core by IPC only, so it needs no network (connect-src
 * 'self'). React and Blueprint set styles through the CSSOM, which style-src does not govern.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  // pdf.js parses archived PDFs in its own worker, a file of the built renderer.
  "worker-src 'self'",
  "base-uri 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders: Record<string, string> = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
};

/**
 * The app:// protocol handler: serves the renderer's files (through `fetchFile`, Electron's
 * net.fetch on a file: URL) with the CSP on every response, and 404 for refused requests.
 */
export async function serveAppRequest(requestUrl: string, rendererDir: string, fetchFile: (fileUrl: string) => Promise<Response>): Promise<Response> {
  const file = resolveRendererFile(requestUrl, rendererDir);
  if (!file) return new Response('Not found', { status: 404, headers: securityHeaders });
  try {
    const served = await fetchFile(pathToFileURL(file).toString());
    const headers = new Headers(served.headers);
    for (const [name, value] of Object.entries(securityHeaders)) headers.set(name, value);
    return new Response(served.body, { status: served.status, statusText: served.statusText, headers });
  } catch {
    return new Response('Not found', { status: 404, headers: securityHeaders });
  }
}
