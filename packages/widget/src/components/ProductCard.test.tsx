import { render } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { expectInert } from '../../test/inert.js';
import { XSS_PAYLOADS } from '../../test/xss-corpus.js';
import type { Product } from '../api-types.js';
import { formatPrice, ProductCard } from './ProductCard.js';

const tent: Product = {
  id: 'tent-2p',
  name: 'Trail Tent 2P',
  price: 249,
  currency: 'EUR',
  description: 'Light and roomy.',
  url: 'https://shop.example/tent',
  imageUrl: 'https://cdn.example/tent.jpg',
};

describe('ProductCard', () => {
  it('shows name, price in the visitor locale and currency, description, image and a safe link', () => {
    const { getByTestId, container } = render(<ProductCard product={tent} locale="fr-FR" cta="Voir le produit" />);
    expect(getByTestId('svc-product-price').textContent).toBe(new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(249));
    const link = container.querySelector('a')!;
    expect([link.textContent, link.getAttribute('href'), link.getAttribute('target'), link.getAttribute('rel')]).toEqual([
      'Trail Tent 2P',
      'https://shop.example/tent',
      '_blank',
      'noopener noreferrer',
    ]);
    const image = container.querySelector('img')!;
    expect([image.getAttribute('src'), image.getAttribute('alt'), image.getAttribute('referrerpolicy')]).toEqual(['https://cdn.example/tent.jpg', '', 'no-referrer']);
    expect(container.textContent).toContain('Light and roomy.');
    // The call to action: the same page, out of the tab order and the accessibility tree (the name says it).
    const cta = container.querySelector('[data-testid="svc-product-cta"]')!;
    expect([cta.textContent, cta.getAttribute('href'), cta.getAttribute('tabindex'), cta.getAttribute('aria-hidden')]).toEqual([
      'Voir le produit',
      'https://shop.example/tent',
      '-1',
      'true',
    ]);
  });

  it('formats prices without a currency, and with a code Intl does not know, without throwing', () => {
    expect(formatPrice(1234.5, undefined, 'en-US')).toBe('1,234.5');
    expect(formatPrice(12, 'usd', 'en-US')).toBe('12');
    expect(formatPrice(Number.NaN, 'EUR', 'en-US')).toBe('');
    expect(formatPrice(5, 'EUR', 'not a locale!')).toBe('5 EUR');
  });

  it('loads no image and links nowhere unless the URL is http(s)', () => {
    const { container } = render(<ProductCard product={{ ...tent, url: 'javascript:alert(1)', imageUrl: 'data:image/svg+xml,<svg onload=alert(1)>' }} locale="en" cta="View product" />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('Trail Tent 2P');
  });

  it('renders every XSS payload in every text and URL field inert', () => {
    for (const payload of XSS_PAYLOADS) {
      const hostile = { ...tent, name: payload, description: payload, currency: payload, url: payload, imageUrl: payload };
      const { container, unmount } = render(<ProductCard product={hostile} locale="en" cta="View product" />);
      expectInert(container);
      expect(container.textContent).toContain(payload.replace(/\u0000/g, '\uFFFD').slice(1, 10));
      unmount();
    }
  });
});
