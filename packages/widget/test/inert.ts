import { expect } from 'vitest';

/** What "inert" means for rendered model or catalogue output: nothing that can run code or load something. */
export function expectInert(root: Element | ShadowRoot): void {
  expect(root.querySelectorAll('script, iframe, object, embed, svg, math, style, form, meta, base, details')).toHaveLength(0);
  for (const element of root.querySelectorAll('*')) {
    for (const attribute of element.attributes) {
      expect(attribute.name).not.toMatch(/^on/i);
      expect(attribute.name).not.toBe('style');
    }
  }
  for (const link of root.querySelectorAll('a')) {
    expect(link.getAttribute('href')).toMatch(/^(https?:\/\/|mailto:)/);
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  }
  for (const image of root.querySelectorAll('img')) expect(image.getAttribute('src')).toMatch(/^https?:\/\//);
}
