import { existsSync, statSync } from 'node:fs';
import { join, normalize, relative, isAbsolute } from 'node:path';
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
