import { z } from 'zod';
import { readTextOrNull, writeFileAtomically } from '../core/files';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const stateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(400).max(16_384),
  height: z.number().int().min(300).max(16_384),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof stateSchema>;

/** Enough of the window's top (its title bar) to grab it with the mouse. */
const grabWidth = 120;
const grabHeight = 40;

function overlap(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return { x, y, width: Math.min(a.x + a.width, b.x + b.width) - x, height: Math.min(a.y + a.height, b.y + b.height) - y };
}

/**
 * The saved size and position of the app window, or null when there is none, it is malformed, or
 * its title bar would be off every screen now (a monitor was unplugged): the window then opens at
 * its default size, centred.
 */
export function readWindowState(path: string, workAreas: readonly Rect[]): WindowState | null {
  const text = readTextOrNull(path);
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const result = stateSchema.safeParse(parsed);
  if (!result.success) return null;
  const titleBar = { x: result.data.x, y: result.data.y, width: result.data.width, height: grabHeight };
  const visible = workAreas.some((area) => {
    const seen = overlap(titleBar, area);
    return seen.width >= Math.min(grabWidth, result.data.width) && seen.height >= grabHeight;
  });
  return visible ? result.data : null;
}

export function writeWindowState(path: string, state: WindowState): void {
  writeFileAtomically(path, JSON.stringify(state), 0o644);
}
