import type { KnowledgeHits, KnowledgePassage, Product } from '@svc/core/store-kit';
import { describe, expect, it } from 'vitest';
import { composeAnswer, formatPrice } from './compose-answer.js';
import type { AnswerInput } from './compose-answer.js';
import { phrasesFor } from './phrases.js';

/** Hand-made hits: these tests pin the composition rules, whatever a store would rank. */
function passage(title: string, content: string): KnowledgePassage {
  return { documentId: `doc_${title}`, knowledgeBaseId: 'kb_1', title, url: null, content, rank: 1 };
}

const tent: Product = { id: 'prod_tent', name: 'Dome Tent', price: 100, currency: 'EUR', description: 'A tent.' };
const stove: Product = { id: 'prod_stove', name: 'Stove', price: 20, description: 'Boils water.' };

function input(question: string, hits: KnowledgeHits, overrides: Partial<AnswerInput> = {}): AnswerInput {
  return {
    question,
    hits,
    phrases: phrasesFor('en'),
    language: 'en',
    maxPassages: 3,
    maxProducts: 3,
    maxSentences: 3,
    formTrigger: null,
    ...overrides,
  };
}

const hit = (product: Product) => ({ knowledgeBaseId: 'kb_1', product, rank: 1 });

describe('composeAnswer', () => {
  it('prefers the passage covering more of the question over the store order', () => {
    const hits = {
      passages: [passage('Tracking', 'Parcels are shipped with UPS.'), passage('Shipping', 'We ship to Canada in 5 days.')],
      products: [],
    };
    const answer = composeAnswer(input('Do you ship to Canada?', hits));
    expect(answer.content).toBe('We ship to Canada in 5 days.\n\n_Source: Shipping_');
  });

  it('leads with products when they match better than any passage', () => {
    const hits = { passages: [passage('Warranty', 'Tent repairs take two weeks.')], products: [hit(tent)] };
    const answer = composeAnswer(input('Which tents do you sell?', hits));
    expect(answer.content).toBe('Here is what I found in our catalogue: Dome Tent (€100.00).');
    expect(answer.products).toEqual([tent]);
  });

  it('lets a passage as good as the best product lead, with the product after it', () => {
    const jacket: Product = { id: 'prod_jacket', name: 'Rain Jacket', price: 90, description: 'Regular fit, all sizes.' };
    const hits = { passages: [passage('Size guide', 'Jackets run true to size.')], products: [hit(jacket)] };
    expect(composeAnswer(input('What size jacket?', hits)).content).toBe(
      'Jackets run true to size.\n\n_Source: Size guide_\n\nRelated products: Rain Jacket (90.00).',
    );
  });

  it('drops products that share no term with the question when something else does', () => {
    const hits = { passages: [passage('Shipping', 'We ship to Canada.')], products: [hit(stove)] };
    const answer = composeAnswer(input('Do you ship to Canada?', hits));
    expect(answer.products).toEqual([]);
    expect(answer.content).not.toContain('Stove');
  });

  it('shows only the products matching best', () => {
    const jacket: Product = { id: 'prod_jacket', name: 'Rain Jacket', price: 90, description: 'Waterproof.' };
    const hits = { passages: [], products: [hit({ ...tent, description: 'Waterproof.' }), hit(jacket)] };
    expect(composeAnswer(input('Is the rain jacket waterproof?', hits)).products).toEqual([jacket]);
  });

  it('answers from every retrieved chunk of the best document', () => {
    const hits = {
      passages: [
        passage('Returns', 'You can return unused items within 60 days.'),
        passage('Returns', 'To return an item, open Orders and select Return items.'),
      ],
      products: [],
    };
    expect(composeAnswer(input('How do I return an item?', hits)).content).toBe(
      'To return an item, open Orders and select Return items. You can return unused items within 60 days.\n\n_Source: Returns_',
    );
  });

  it('breaks a coverage tie with the title', () => {
    const hits = {
      passages: [passage('Returns', 'Open Orders to return.'), passage('Opening hours', 'Monday to Friday, 8 am to 6 pm.')],
      products: [],
    };
    expect(composeAnswer(input('When are you open?', hits)).content).toContain('_Source: Opening hours_');
  });

  it('keeps the store hits when none shares a term with the question', () => {
    const hits = { passages: [], products: [hit(stove)] };
    expect(composeAnswer(input('réchaud', hits)).products).toEqual([stove]);
  });

  it('shows at most maxProducts products', () => {
    const many = [1, 2, 3, 4].map((n) => hit({ ...tent, id: `prod_${n}` }));
    expect(composeAnswer(input('tent', { passages: [], products: many }, { maxProducts: 2 })).products).toHaveLength(2);
  });

  it('suggests the form trigger after a miss', () => {
    const answer = composeAnswer(input('unicorns?', { passages: [], products: [] }, { formTrigger: 'talk to sales' }));
    expect(answer.content).toBe(
      "I couldn't find anything about “unicorns” in our knowledge base. Could you rephrase your question, or ask about another topic? If you'd rather talk to a person, just say “talk to sales”.",
    );
  });
});

describe('formatPrice', () => {
  it('formats in the reply language', () => {
    expect(formatPrice(tent, 'de-DE')).toBe('100,00\u00a0€');
  });

  it('survives an unknown currency or malformed language', () => {
    expect(formatPrice({ ...stove, currency: 'not money' }, 'en')).toBe('20.00 not money');
    expect(formatPrice(tent, '!!')).toBe('€100.00');
    expect(formatPrice(stove, 'en')).toBe('20.00');
  });
});
