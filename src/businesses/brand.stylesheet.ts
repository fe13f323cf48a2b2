import { createHash } from 'node:crypto';
import { contrastShortfall } from './brand.color.js';
import { boundedMemo } from '../shared/memo.js';

/**
 * The business's stylesheet: the page's `--brand` custom properties (web/assets/page.css) set to its
 * colour. It depends on the colour alone, so it is served from the colour, with no database read, at
 * `/brand/<rrggbb>.<hash>.css` (same origin: the strict Content-Security-Policy allows it as it is),
 * the hash naming its text so a change to it is a new address and the old one can be cached for a year.
 */

/** 20% towards black: the buttons' hover, darker than the colour, so more readable still. */
function darker(color: string): string {
  const n = Number.parseInt(color.slice(1), 16);
  const part = (shift: number) => Math.round(((n >> shift) & 0xff) * 0.8);
  return `#${[16, 8, 0].map((shift) => part(shift).toString(16).padStart(2, '0')).join('')}`;
}

export const brandCss = (color: string): string =>
  `/* The business's colour (docs/brand.md). */\n:root {\n  --brand: ${color};\n  --brand-dark: ${darker(color)};\n}\n`;

const hashOf = (css: string) => createHash('sha256').update(css).digest('hex').slice(0, 12);

/**
 * Where a colour's stylesheet is served. Remembered by colour: the page names its stylesheet in every
 * view, and the path's hash is a SHA-256.
 */
export const brandCssPath = boundedMemo(1024, (color) => `/brand/${color.slice(1)}.${hashOf(brandCss(color))}.css`);

const FILE = /^([0-9a-f]{6})\.([0-9a-f]{12})\.css$/;

/**
 * The stylesheet a path names, or null: an unknown hash (an older stylesheet's) or a colour the
 * service would refuse is not served.
 */
export function brandCssFor(file: string): string | null {
  const match = FILE.exec(file);
  if (!match) return null;
  const color = `#${match[1]!}`;
  if (contrastShortfall(color)) return null;
  const css = brandCss(color);
  return hashOf(css) === match[2] ? css : null;
}
