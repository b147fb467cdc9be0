import { describe, expect, it } from 'vitest';
import { contrastRatio, iconColorOn, shadeForWhiteText } from './color.js';

describe('WCAG contrast (DESIGN.md 7)', () => {
  it('knows white on the default #6366f1 fails AA for text', () => {
    expect(contrastRatio('#6366f1', '#ffffff')).toBeCloseTo(4.47, 2);
  });

  it('darkens a brand colour just enough for white text to reach 4.5:1', () => {
    for (const brand of ['#6366f1', '#22c55e', '#facc15', '#ffffff', '#0ea5e9', '#f43f5e']) {
      const shade = shadeForWhiteText(brand);
      expect(contrastRatio(shade, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    }
    expect(shadeForWhiteText('#1e3a8a')).toBe('#1e3a8a');
  });

  it('picks a launcher icon colour with at least 3:1 on the bubble', () => {
    for (const brand of ['#6366f1', '#facc15', '#ffffff', '#111111', '#22c55e']) {
      expect(contrastRatio(iconColorOn(brand), brand)).toBeGreaterThanOrEqual(3);
    }
    expect(iconColorOn('#6366f1')).toBe('#ffffff');
    expect(iconColorOn('#facc15')).toBe('#111827');
  });
});
