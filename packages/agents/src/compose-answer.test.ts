import type { Product, Retrieval, RetrievedPassage, RetrievedProduct } from '@svc/core/store-kit';
import { describe, expect, it } from 'vitest';
import { composeAnswer, formatPrice } from './compose-answer.js';
import type { AnswerInput } from './compose-answer.js';
import { phrasesFor } from './phrases.js';

/** Hand-made retrievals: these tests pin the composition rules, whatever a store would rank. */
function passage(title: string, content: string, options: { confidence?: number; url?: string } = {}): RetrievedPassage {
  const { confidence = 0.9, url = null } = options;
  return {
    documentId: `doc_${title}`,
    knowledgeBaseId: 'kb_1',
    position: 0,
    title,
    url,
    content,
    rank: 1,
    matched: { title: [], all: [], counts: {}, length: { title: 0, body: 0 } },
    score: 1,
    confidence,
    retrievers: ['text'],
  };
}

const tent: Product = { id: 'prod_tent', name: 'Dome Tent', price: 100, currency: 'EUR', description: 'A tent.' };
const stove: Product = { id: 'prod_stove', name: 'Stove', price: 20, description: 'Boils water.' };

const hit = (product: Product, confidence = 0.9): RetrievedProduct => ({
  knowledgeBaseId: 'kb_1',
  product,
  rank: 1,
  matched: { title: [], all: [], counts: {}, length: { title: 0, body: 0 } },
  score: 1,
  confidence,
});

function retrieval(passages: RetrievedPassage[], products: RetrievedProduct[] = []): Retrieval {
  return { passages, products, confidence: passages[0]?.confidence ?? 0, meters: { retrievals: 1, embeddings: 0, reranks: 0 } };
}

function input(question: string, found: Retrieval, overrides: Partial<AnswerInput> = {}): AnswerInput {
  return {
    question,
    retrieval: found,
    phrases: phrasesFor('en'),
    language: 'en',
    maxPassages: 3,
    maxProducts: 3,
    maxSentences: 3,
    formTrigger: null,
    threshold: 0.35,
    ...overrides,
  };
}

describe('composeAnswer: answering', () => {
  it('answers from the first passage of the retrieval and names it as the source', () => {
    const found = retrieval([passage('Shipping', 'We ship to Canada in 5 days.', { confidence: 0.8 }), passage('Tracking', 'Parcels are shipped with UPS.', { confidence: 0.5 })]);
    const answer = composeAnswer(input('Do you ship to Canada?', found));
    expect(answer.content).toBe('We ship to Canada in 5 days.\n\n_Source: Shipping_');
    expect(answer.sources).toEqual([{ documentId: 'doc_Shipping', title: 'Shipping', url: null }]);
    expect(answer).toMatchObject({ answered: true, confidence: 0.8, actions: [] });
  });

  it('leads with products when they match better than any passage, citing no document', () => {
    const found = retrieval([passage('Warranty', 'Tent repairs take two weeks.', { confidence: 0.4 })], [hit(tent, 0.9)]);
    const answer = composeAnswer(input('Which tents do you sell?', found));
    expect(answer.content).toBe('Here is what I found in our catalogue: Dome Tent (€100.00).');
    expect(answer.products).toEqual([tent]);
    expect(answer.sources).toEqual([]);
  });

  it('lets a passage as good as the best product lead, with the product after it', () => {
    const jacket: Product = { id: 'prod_jacket', name: 'Rain Jacket', price: 90, description: 'Regular fit, all sizes.' };
    const found = retrieval([passage('Size guide', 'Jackets run true to size.', { confidence: 0.7 })], [hit(jacket, 0.7)]);
    expect(composeAnswer(input('What size jacket?', found)).content).toBe(
      'Jackets run true to size.\n\n_Source: Size guide_\n\nRelated products: Rain Jacket (90.00).',
    );
  });

  it('offers no product below the threshold: a question not about products gets no product card', () => {
    const found = retrieval([passage('Shipping', 'We ship to Canada.', { confidence: 0.8 })], [hit(stove, 0.2)]);
    const answer = composeAnswer(input('Do you ship to Canada?', found));
    expect(answer.products).toEqual([]);
    expect(answer.content).not.toContain('Stove');
  });

  it('shows only the products matching as much of the question as the best one', () => {
    const jacket: Product = { id: 'prod_jacket', name: 'Rain Jacket', price: 90, description: 'Waterproof.' };
    const found = retrieval([], [hit({ ...tent, description: 'Waterproof.' }, 0.5), hit(jacket, 0.95)]);
    expect(composeAnswer(input('Is the rain jacket waterproof?', found)).products).toEqual([jacket]);
  });

  it('answers from every retrieved chunk of the best document', () => {
    const found = retrieval([
      passage('Returns', 'You can return unused items within 60 days.'),
      passage('Returns', 'To return an item, open Orders and select Return items.'),
    ]);
    expect(composeAnswer(input('How do I return an item?', found)).content).toBe(
      'To return an item, open Orders and select Return items. You can return unused items within 60 days.\n\n_Source: Returns_',
    );
  });

  it('shows at most maxProducts products', () => {
    const many = [1, 2, 3, 4].map((n) => hit({ ...tent, id: `prod_${n}` }));
    expect(composeAnswer(input('tent', retrieval([], many), { maxProducts: 2 })).products).toHaveLength(2);
  });
});

describe('composeAnswer: abstaining below the threshold', () => {
  it('does not quote a passage below the threshold: it says it does not know and cites nothing', () => {
    const found = retrieval([passage('Cruise ships', 'Cruise ships are crowded.', { confidence: 0.3 })]);
    const answer = composeAnswer(input('Is the swimming pool safe?', found));
    expect(answer.content).not.toContain('crowded');
    expect(answer.content).toContain("I couldn't find anything about “swimming pool safe”");
    expect(answer.sources).toEqual([]);
    expect(answer).toMatchObject({ answered: false, confidence: 0.3 });
  });

  it('offers the closest articles (links for web pages, quick replies otherwise) and a person, never as sources', () => {
    const found = retrieval([
      passage('Pools', 'Chlorine…', { confidence: 0.2, url: 'https://help.example/pools' }),
      passage('Pools', 'More on pools…', { confidence: 0.2, url: 'https://help.example/pools' }),
      passage('Hot tubs', 'Hot tubs…', { confidence: 0.1 }),
      passage('Sauna', 'Sauna…', { confidence: 0.1, url: 'javascript:alert(1)' }),
    ]);
    const answer = composeAnswer(input('Can I swim?', found, { maxPassages: 4, formTrigger: 'contact us' }));
    expect(answer.actions).toEqual([
      { type: 'link', label: 'Pools', url: 'https://help.example/pools' },
      { type: 'reply', label: 'Hot tubs', text: 'Hot tubs' },
      { type: 'reply', label: 'Sauna', text: 'Sauna' },
      { type: 'reply', label: 'Talk to a person', text: 'I would like to talk to a person.' },
      { type: 'reply', label: 'contact us', text: 'contact us' },
    ]);
    expect(answer.sources).toEqual([]);
  });

  it('answers at exactly the threshold', () => {
    expect(composeAnswer(input('Shipping?', retrieval([passage('Shipping', 'We ship.', { confidence: 0.35 })]))).answered).toBe(true);
  });

  it('suggests the form trigger after a miss', () => {
    const answer = composeAnswer(input('unicorns?', retrieval([]), { formTrigger: 'talk to sales' }));
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
