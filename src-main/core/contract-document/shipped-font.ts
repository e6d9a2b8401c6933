import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { moduleFile } from '../archive/pdf-text';

// The CJK font the app ships (@fontsource-variable/noto-sans-sc, UI.md), for the document's PDF:
// the package's WOFF2 files, one per Unicode subset (unicode.json says which characters each
// holds), read by pdf-lib's fontkit as they are (it decodes WOFF2). The renderer's build takes the
// same files for the screens; the main bundle gets a copy beside it (scripts/build-main.ts), so
// the app ships one font.

export interface ShippedFont {
  /** The subset holding a character (the Latin one for a character no subset has). */
  subsetOf(codePoint: number): string;
  bytes(subset: string): Promise<Uint8Array>;
}

const fallbackSubset = 'latin';

/** The font's folder: beside the main bundle when built, else the package in node_modules. */
export function shippedFontDir(): string {
  const bundled = join(dirname(moduleFile()), 'fonts');
  if (existsSync(join(bundled, 'unicode.json'))) return bundled;
  return dirname(createRequire(moduleFile()).resolve('@fontsource-variable/noto-sans-sc/unicode.json'));
}

const fileName = (subset: string) => `noto-sans-sc-${subset.replace(/^\[(\d+)\]$/, '$1')}-wght-normal.woff2`;

export function shippedFont(dir: string = shippedFontDir()): ShippedFont {
  const subsets = JSON.parse(readFileSync(join(dir, 'unicode.json'), 'utf8')) as Record<string, string>;
  const ranges: { from: number; to: number; subset: string }[] = [];
  for (const [subset, list] of Object.entries(subsets)) {
    for (const range of list.split(',')) {
      const [from = '0', to = from] = range.trim().replace(/^U\+/i, '').split('-');
      ranges.push({ from: parseInt(from, 16), to: parseInt(to, 16), subset });
    }
  }
  ranges.sort((a, b) => a.from - b.from);
  // The bundled copy holds the files flat; the package keeps them in files/.
  const folder = existsSync(join(dir, 'files')) ? join(dir, 'files') : dir;
  return {
    subsetOf(codePoint) {
      let [low, high] = [0, ranges.length - 1];
      while (low <= high) {
        const middle = (low + high) >> 1;
        const range = ranges[middle]!;
        if (codePoint < range.from) high = middle - 1;
        else if (codePoint > range.to) low = middle + 1;
        else return range.subset;
      }
      return fallbackSubset;
    },
    bytes: async (subset) => new Uint8Array(await readFile(join(folder, fileName(subset)))),
  };
}
