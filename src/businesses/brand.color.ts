/**
 * The brand colour's rule (WCAG 2.x, success criterion 1.4.3, AA): the page's buttons are the colour
 * with white text, and its links are the colour on the page's background, so both pairs must reach
 * 4.5:1. The ratio is measured with WCAG's relative luminance.
 */

/** The public page's background (web/assets/page.css, `body`): links stand on it and on white. */
export const PAGE_BACKGROUND = '#f6f5f2';
/** The text of the page's buttons. */
export const BUTTON_TEXT = '#ffffff';
export const MIN_CONTRAST = 4.5;

export const BRAND_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

const channel = (value: number) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** WCAG relative luminance of `#rrggbb`: 0 for black, 1 for white. */
export function relativeLuminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 0xff) + 0.7152 * channel((n >> 8) & 0xff) + 0.0722 * channel(n & 0xff);
}

/** (lighter + 0.05) / (darker + 0.05): 1 for the same colour, 21 for black on white. */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Rounded down to two decimals: a ratio shown as 4.50 is never really 4.499. */
const shown = (ratio: number) => Math.floor(ratio * 100) / 100;

export interface ContrastShortfall {
  /** What the colour stands against: the page (links) or the button's white text. */
  against: 'page_background' | 'button_text';
  /** The measured ratio, rounded down to two decimals. */
  ratio: number;
}

/** The pair that falls short of 4.5:1 (the worse one), or null when the colour reads well in both. */
export function contrastShortfall(color: string): ContrastShortfall | null {
  const pairs = [
    { against: 'page_background' as const, ratio: contrastRatio(color, PAGE_BACKGROUND) },
    { against: 'button_text' as const, ratio: contrastRatio(color, BUTTON_TEXT) },
  ].sort((a, b) => a.ratio - b.ratio);
  const worst = pairs[0]!;
  return worst.ratio < MIN_CONTRAST ? { against: worst.against, ratio: shown(worst.ratio) } : null;
}
