import { DEMO_FORMS, DEMO_KNOWLEDGE } from '@svc/agents';
import { describe, expect, it } from 'vitest';

describe('demo knowledge', () => {
  it('has 6-10 products with unique prod_ ids, prices and links', () => {
    const { products } = DEMO_KNOWLEDGE;
    expect(products.length).toBeGreaterThanOrEqual(6);
    expect(products.length).toBeLessThanOrEqual(10);
    expect(new Set(products.map((product) => product.id)).size).toBe(products.length);
    for (const product of products) {
      expect(product.id).toMatch(/^prod_[a-z0-9_]+$/);
      expect(product.price).toBeGreaterThan(0);
      expect(product.currency).toBe('USD');
      expect(product.description).toBeTruthy();
      expect(product.url).toMatch(/^https:\/\/northwind-outfitters\.example\//);
    }
  });

  it('has 5-8 FAQ documents with a title, Markdown content and a link', () => {
    const { documents } = DEMO_KNOWLEDGE;
    expect(documents.length).toBeGreaterThanOrEqual(5);
    expect(documents.length).toBeLessThanOrEqual(8);
    for (const doc of documents) {
      expect(doc.content.startsWith(`# ${doc.title}\n`)).toBe(true);
      expect(doc.url).toMatch(/^https:\/\/northwind-outfitters\.example\/help\//);
    }
  });

  it('has the contact form with its triggers and questions', () => {
    const [form] = DEMO_FORMS;
    expect(form?.id).toBe('contact_sales');
    expect(form?.triggers).toEqual(['talk to sales', 'contact sales', 'speak to a human', 'call me back']);
    expect(form?.questions.map((q) => [q.id, q.kind, q.required])).toEqual([
      ['name', 'text', true],
      ['email', 'email', true],
      ['company', 'text', false],
      ['message', 'textarea', false],
    ]);
  });
});
