import type { Product } from '@svc/core/store-kit';
import { describe, expect, it } from 'vitest';
import { DEMO_FORMS, DEMO_KNOWLEDGE, LlmAgentError } from '../index.js';
import { surfaceForm } from '../forms.js';
import { createTurnLog } from './turn-log.js';
import type { TurnLog } from './turn-log.js';
import { buildReply } from './turn-reply.js';
import type { TurnResult } from './turn-reply.js';

const result = (overrides: Partial<TurnResult> = {}): TurnResult => ({
  text: '',
  steps: 2,
  usage: { inputTokens: 100, outputTokens: 10 },
  prompt: ['system', 'Hello'],
  ...overrides,
});

function logWith(changes: Partial<TurnLog>): TurnLog {
  return { ...createTurnLog(), ...changes };
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`the demo data has no item ${index}`);
  return item;
}

const tent: Product = at(DEMO_KNOWLEDGE.products, 0);
const bag: Product = at(DEMO_KNOWLEDGE.products, 1);
const contactForm = surfaceForm(at(DEMO_FORMS, 0));

describe('buildReply', () => {
  it('uses the model text, trimmed, and meters steps beyond the first as orchestration', () => {
    const reply = buildReply({ language: 'en', model: 'm', log: logWith({ retrievals: 2 }), result: result({ text: '  Hello!\n' }) });
    expect(reply.content).toBe('Hello!');
    expect(reply.meters).toEqual({ retrievals: 2, embeddings: 0, reranks: 0, pluginCalls: 0, pluginReranks: 0, crawledPages: 0, orchestrationSteps: 1 });
    expect(reply.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
  });

  it('lists the products found when the steps ran out before any text', () => {
    const log = logWith({ products: new Map([[tent.id, tent], [bag.id, bag]]) });
    const reply = buildReply({ language: 'en', model: 'm', log, result: result() });
    expect(reply.products).toEqual([tent, bag]);
    expect(reply.content).toBe(
      'Here is what I found in our catalogue: [Trailhead 2 Backpacking Tent](https://northwind-outfitters.example/products/trailhead-2-tent) ($249.00), [Basecamp 4 Family Tent](https://northwind-outfitters.example/products/basecamp-4-tent) ($429.00).',
    );
  });

  it('keeps the form and the session open when both a form and the end were asked for', () => {
    const reply = buildReply({ language: 'de', model: 'm', log: logWith({ form: contactForm, ended: true }), result: result() });
    expect(reply.forms).toEqual([contactForm]);
    expect(reply.sessionEnded).toBe(false);
    expect(reply.content).toBe('Gern! Bitte füllen Sie das Formular unten aus (**Talk to sales**), wir melden uns bei Ihnen.');
  });

  it('rejects an empty turn with a reason', () => {
    expect(() => buildReply({ language: 'en', model: 'openai.chat:gpt-4o-mini', log: createTurnLog(), result: result({ text: ' ' }) })).toThrow(
      expect.objectContaining({ name: 'LlmAgentError', reason: 'empty_answer' }) as LlmAgentError,
    );
  });
});
