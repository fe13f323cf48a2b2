import { describe, expect, it } from 'vitest';
import { contrastRatio, contrastShortfall, relativeLuminance } from './brand.color.js';

describe('brand colour contrast', () => {
  it('When black and white are measured, then their ratio is 21:1 and their luminances 0 and 1', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10);
  });

  it("When WCAG's own reference pair is measured (#767676 on white), then it is 4.54:1", () => {
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('When a light yellow is checked, then it falls short against the page, with its ratio', () => {
    expect(contrastShortfall('#ffd700')).toEqual({ against: 'page_background', ratio: 1.28 });
  });

  it('When a colour lighter than the page is checked, then the white button text is the worse pair', () => {
    expect(contrastShortfall('#ffffff')).toEqual({ against: 'button_text', ratio: 1 });
  });

  it("When the page's own blue or a dark green is checked, then nothing falls short", () => {
    expect(contrastShortfall('#0b57a4')).toBeNull();
    expect(contrastShortfall('#1d5e34')).toBeNull();
  });

  it('When #767676 is checked, then the page background (darker than white) makes it fall short', () => {
    expect(contrastShortfall('#767676')).toEqual({ against: 'page_background', ratio: 4.16 });
  });
});
