import type { VNode } from 'preact';
import type { Product } from '../api-types.js';
import { safeWebUrl } from '../safe-url.js';

/** The price in the visitor's locale; a code Intl does not know falls back to "12.5 XYZ" instead of throwing. */
export function formatPrice(price: unknown, currency: unknown, locale: string): string {
  if (typeof price !== 'number' || !Number.isFinite(price)) return '';
  const code = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : undefined;
  try {
    return new Intl.NumberFormat(locale, code ? { style: 'currency', currency: code } : { maximumFractionDigits: 2 }).format(price);
  } catch {
    return code ? `${price} ${code}` : String(price);
  }
}

/**
 * A product from a reply. Every field is shown as text; the image loads only from an http(s) URL (without a
 * referrer), and the name links to the product page only when that is an http(s) URL too. The call to action at
 * the card's foot is the same link as a large touch target; hidden from assistive technology and the tab order,
 * so the page is announced once, by its name.
 */
export function ProductCard({ product, locale, cta }: { product: Product; locale: string; cta: string }): VNode {
  const image = safeWebUrl(product.imageUrl);
  const href = safeWebUrl(product.url);
  const name = String(product.name ?? '');
  return (
    <article part="product" class="card" data-testid="svc-product">
      {image && <img part="product-image" src={image} alt="" loading="lazy" referrerpolicy="no-referrer" />}
      <div>
        <p>
          {href ? (
            <a part="product-link" href={href} target="_blank" rel="noopener noreferrer">
              {name}
            </a>
          ) : (
            <b>{name}</b>
          )}
        </p>
        <p data-testid="svc-product-price">{formatPrice(product.price, product.currency, locale)}</p>
        {typeof product.description === 'string' && <p class="hint">{product.description}</p>}
        {href && (
          <a class="cta" href={href} target="_blank" rel="noopener noreferrer" tabIndex={-1} aria-hidden="true" data-testid="svc-product-cta">
            {cta}
          </a>
        )}
      </div>
    </article>
  );
}
