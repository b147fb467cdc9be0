import { describe, expect, it } from 'vitest';
import type { Product } from './api-types.js';
import { withoutProductListing } from './product-text.js';

const product = (name: string, url?: string): Product => ({ id: name, name, price: 89, currency: 'USD', ...(url ? { url } : {}) }) as Product;
const tent = product('Trailhead 2 Tent', 'https://shop.example/products/tent');
const boots = product('Ridge Boots', 'https://shop.example/products/boots/');

describe('the reply text without the listing the product cards show', () => {
  it("drops the local agent's inline listing and keeps its lead-in", () => {
    const text = 'Here is what I found in our catalogue: [Trailhead 2 Tent](https://shop.example/products/tent) ($89.00), [Ridge Boots](https://shop.example/products/boots) ($120.00).';
    expect(withoutProductListing(text, [tent, boots])).toBe('Here is what I found in our catalogue:');
  });

  it('drops list items that are only a product link and its price, keeping the rest of the answer', () => {
    const text = 'Two tents fit:\n\n- [Trailhead 2 Tent](https://SHOP.example/products/tent#specs) — $89\n- [Ridge Boots](https://shop.example/products/boots) ($120)\n\nBoth ship free.';
    expect(withoutProductListing(text, [tent, boots])).toBe('Two tents fit:\n\nBoth ship free.');
  });

  it('keeps links to other pages, products without a card, and names in running text', () => {
    const text = 'See [our returns page](https://shop.example/returns) and the [Lantern](https://shop.example/products/lantern). The Trailhead 2 Tent is light.';
    expect(withoutProductListing(text, [tent])).toBe(text);
    expect(withoutProductListing(text, [product('No page')])).toBe(text);
  });

  it('leaves nothing when the reply was only the listing (the cards say it all)', () => {
    expect(withoutProductListing('[Trailhead 2 Tent](https://shop.example/products/tent) ($89.00)', [tent])).toBe('');
  });
});
