/**
 * Colour arithmetic for WCAG AA (DESIGN.md 7): white text on the default `#6366f1` is only 4.47:1, so text sits on a
 * darker shade of the brand colour that reaches 4.5:1, while the launcher, a non-text control, needs 3:1.
 */
const WHITE = '#ffffff';
const INK = '#111827';

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG 2.x relative luminance. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The colour mixed toward black by `amount` (0-1). */
function darken(hex: string, amount: number): string {
  return `#${channels(hex)
    .map((c) => Math.round(c * (1 - amount)).toString(16).padStart(2, '0'))
    .join('')}`;
}

/** The brand colour, or the lightest darker shade of it, on which white text reaches `ratio` (AA text: 4.5). */
export function shadeForWhiteText(hex: string, ratio = 4.5): string {
  for (let step = 0; step <= 20; step++) {
    const candidate = darken(hex, step * 0.05);
    if (contrastRatio(candidate, WHITE) >= ratio) return candidate;
  }
  return '#000000';
}

/** White or near-black, whichever shows on `hex` with at least 3:1 (AA for graphical objects). */
export function iconColorOn(hex: string): string {
  return contrastRatio(hex, WHITE) >= 3 ? WHITE : INK;
}
