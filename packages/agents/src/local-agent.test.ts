import { countTokens, createLocalAgent, DEMO_FORMS } from '@svc/agents';
import type { KnowledgeHits, KnowledgeQuery, Store, StoreOps, StoredMessage } from '@svc/core/store-kit';
import { zeroMeters } from '@svc/core/store-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { phrasesFor } from './phrases.js';
import { demoRequest, demoWidget, seedDemoStore } from './test-support.js';

let store: Store;
beforeAll(async () => {
  store = await seedDemoStore();
});

/** The real store search, counting calls, so tests can tell whether the agent searched. */
function countingKnowledge(): Pick<StoreOps, 'searchKnowledge'> & { calls: number } {
  const knowledge = {
    calls: 0,
    searchKnowledge: (query: KnowledgeQuery) => {
      knowledge.calls += 1;
      return store.searchKnowledge(query);
    },
  };
  return knowledge;
}

const noHits: Pick<StoreOps, 'searchKnowledge'> = {
  searchKnowledge: async (): Promise<KnowledgeHits> => ({ passages: [], products: [], terms: { passages: 0, frequencies: {} } }),
};

describe('local agent: answers from the knowledge base', () => {
  it('answers a shipping question from the shipping document and cites it', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('Do you ship to Canada?'));
    expect(reply.content).toContain('Canada');
    expect(reply.content).toMatch(/5-8 business days|\$14\.95/);
    expect(reply.content).toContain('[Shipping and delivery](https://northwind-outfitters.example/help/shipping)');
    expect(reply.products).toEqual([]);
    expect(reply.sessionEnded).toBe(false);
    expect(reply.meters.retrievals).toBe(1);
  });

  it('returns the tents when asked which tents there are', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('What tents do you have?'));
    const ids = reply.products.map((product) => product.id);
    expect(ids).toContain('prod_trailhead_2_tent');
    expect(ids).toContain('prod_basecamp_4_tent');
    for (const product of reply.products) expect(product.name).toMatch(/Tent/);
    expect(reply.content).toContain('[Trailhead 2 Backpacking Tent](https://northwind-outfitters.example/products/trailhead-2-tent)');
    expect(reply.content).toContain('$249.00');
  });

  it('leads with the sentence that answers', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('How much is express shipping?'));
    expect(reply.content.startsWith('Express shipping takes 1-2 business days and costs $19.95.')).toBe(true);
  });

  it('does not quote the heading trail of a passage as an answer', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('What payment methods do you accept?'));
    expect(reply.content.startsWith('We accept Visa, Mastercard')).toBe(true);
  });

  it('explains returns from the returns document', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('How do I return an item?'));
    expect(reply.content).toContain('Return items');
    expect(reply.content).toContain('[Returns and refunds](https://northwind-outfitters.example/help/returns)');
  });

  it('answers honestly when nothing matches, offering the form trigger and no products', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('xylophone quantum zeppelin'));
    expect(reply.content).toContain("I couldn't find anything about “xylophone quantum zeppelin” in our knowledge base.");
    expect(reply.content).toContain('rephrase');
    expect(reply.content).toContain('“talk to sales”');
    expect(reply.products).toEqual([]);
    expect(reply.meters.retrievals).toBe(1);
  });

  it('never echoes a link or HTML the visitor typed', async () => {
    const message = '[win a prize](https://evil.example) <img src=x onerror=alert(1)> `code` **bold**';
    const reply = await createLocalAgent({ knowledge: noHits }).reply(demoRequest(message));
    expect(reply.content).not.toContain('](');
    expect(reply.content).not.toContain('<img');
    expect(reply.content).not.toContain('`');
    expect(reply.content).not.toContain('**');
    expect(reply.content).toContain('“win prize https evil example img”');
  });

  it('answers in the visitor language when nothing matches', async () => {
    const reply = await createLocalAgent({ knowledge: noHits }).reply(demoRequest('xylophone', { language: 'de-AT' }));
    expect(reply.content).toContain('Zu „xylophone“ habe ich in unserer Wissensdatenbank nichts gefunden.');
  });

  it('does not search when the widget has no knowledge base', async () => {
    const knowledge = countingKnowledge();
    const widget = demoWidget({ knowledgeBaseIds: [] });
    const reply = await createLocalAgent({ knowledge }).reply(demoRequest('Do you ship to Canada?', { widget }));
    expect(knowledge.calls).toBe(0);
    expect(reply.meters.retrievals).toBe(0);
    expect(reply.content).toContain("I couldn't find");
  });

  it('shows products for a shopper question whatever verb it uses ("sell"), citing no document', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('Which tents do you sell?'));
    expect(reply.products.map((product) => product.name)).toEqual(expect.arrayContaining([expect.stringContaining('Tent')]));
    expect(reply.sources).toEqual([]);
    expect(reply.outcome).toBe('answered');
  });

  it('says it does not know a question the knowledge base does not cover: no citation, no product card, a person offered', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('Can I bring my dog on a cruise?'));
    expect(reply.outcome).toBe('unanswered');
    expect(reply.sources).toEqual([]);
    expect(reply.products).toEqual([]);
    expect(reply.content).toContain("couldn't find");
    expect(reply.actions).toContainEqual({ type: 'reply', label: 'Talk to a person', text: 'I would like to talk to a person.' });
    expect(reply.confidence).toBeLessThan(demoWidget().confidenceThreshold);
  });

  it('cites the document it answered from, with the confidence it was decided on', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('How do I return an item?'));
    expect(reply.sources).toEqual([{ documentId: expect.any(String), title: 'Returns and refunds', url: expect.stringContaining('returns') }]);
    expect(reply.outcome).toBe('answered');
    expect(reply.confidence).toBeGreaterThanOrEqual(demoWidget().confidenceThreshold);
  });

  it('offers a quick reply that, sent back, hands the conversation to a person', async () => {
    const { askPerson } = phrasesFor('en');
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest(askPerson.text));
    expect(reply.handoff).toBe(true);
  });

  it('keeps a thanks followed by a question a question', async () => {
    const knowledge = countingKnowledge();
    const reply = await createLocalAgent({ knowledge }).reply(demoRequest('Thanks, and what about shipping to Australia?'));
    expect(knowledge.calls).toBe(1);
    expect(reply.sessionEnded).toBe(false);
    expect(reply.content).toContain('Australia');
  });
});

describe('local agent: small talk', () => {
  it('greets with the widget greeting and a hint, without searching', async () => {
    const knowledge = countingKnowledge();
    const reply = await createLocalAgent({ knowledge }).reply(demoRequest('Hello!'));
    expect(reply.content.startsWith("Hi! I'm Northwind's assistant.")).toBe(true);
    expect(reply.content).toContain('Ask me anything');
    expect(knowledge.calls).toBe(0);
    expect(reply.meters.retrievals).toBe(0);
    expect(reply.sessionEnded).toBe(false);
  });

  it('greets a French visitor in French, naming the widget', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('Bonjour !', { language: 'fr-FR' }));
    expect(reply.content).toContain("Bonjour ! Vous discutez avec Northwind Outfitters.");
    expect(reply.content).toContain('Posez-moi vos questions');
  });

  it('falls back to a default greeting when the widget has none', async () => {
    const widget = demoWidget({ greeting: '' });
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('hey there', { widget }));
    expect(reply.content).toContain("Hello! You're chatting with Northwind Outfitters.");
  });

  it('ends the session on a clear farewell', async () => {
    const knowledge = countingKnowledge();
    const reply = await createLocalAgent({ knowledge }).reply(demoRequest("Thanks, that's all I needed!"));
    expect(reply.sessionEnded).toBe(true);
    expect(reply.content).toContain('Goodbye');
    expect(knowledge.calls).toBe(0);
    expect(reply.meters.retrievals).toBe(0);
  });

  it('says goodbye in Spanish', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('¡Adiós!', { language: 'es' }));
    expect(reply.sessionEnded).toBe(true);
    expect(reply.content).toContain('¡Adiós');
  });

  it('acknowledges thanks without ending the session', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('Thank you very much!'));
    expect(reply.sessionEnded).toBe(false);
    expect(reply.content).toContain('anything else');
  });

  it('falls back to English for a language it has no phrases for', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('bye', { language: 'constructor' }));
    expect(reply.content).toContain('Goodbye');
  });
});

describe('local agent: forms', () => {
  it('surfaces the form whose trigger the message contains', async () => {
    const knowledge = countingKnowledge();
    const reply = await createLocalAgent({ knowledge }).reply(demoRequest('Could I TALK TO SALES, please?'));
    expect(reply.forms).toEqual([{ formId: 'contact_sales', title: 'Talk to sales', questions: DEMO_FORMS[0]?.questions }]);
    expect(reply.content).toContain('**Talk to sales**');
    expect(reply.products).toEqual([]);
    expect(knowledge.calls).toBe(0);
  });

  it('matches triggers on whole words only', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('recall me backpack sizes'));
    expect(reply.forms).toEqual([]);
  });

  it('hands out a copy of the form, not the widget definition', async () => {
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest('please call me back'));
    expect(reply.forms[0]?.questions).not.toBe(DEMO_FORMS[0]?.questions);
  });
});

describe('local agent: usage, abort and determinism', () => {
  it('counts what it read and wrote with the tokenizer', async () => {
    const message = 'Do you ship to Canada?';
    const reply = await createLocalAgent({ knowledge: store }).reply(demoRequest(message));
    expect(reply.usage.outputTokens).toBe(countTokens(reply.content));
    expect(reply.usage.outputTokens).toBeGreaterThan(0);
    // The retrieved passages are read too, so input is more than instructions and message.
    const instructions = demoWidget().instructions;
    expect(reply.usage.inputTokens).toBeGreaterThan(countTokens(instructions) + countTokens(message));
    expect(reply.meters).toEqual({ ...zeroMeters(), retrievals: 1 });
  });

  it('counts recent history as read', async () => {
    const agent = createLocalAgent({ knowledge: store, historyWindow: 1 });
    const earlier = (content: string): StoredMessage => ({
      id: `msg_${content}`,
      widgetId: 'wgt_demo',
      sessionId: 'sess_demo',
      seq: 1,
      role: 'user',
      content,
      products: [],
      actions: [],
      forms: [],
      sessionEnded: false,
      credits: null,
      usage: null,
      createdAt: new Date(0),
    });
    const without = await agent.reply(demoRequest('hi'));
    const withHistory = await agent.reply(demoRequest('hi', { history: [earlier('old words'), earlier('recent words here')] }));
    expect(withHistory.usage.inputTokens - without.usage.inputTokens).toBe(countTokens('recent words here'));
  });

  it('rejects with the signal reason when aborted before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    const knowledge = countingKnowledge();
    const reply = createLocalAgent({ knowledge }).reply(demoRequest('Do you ship to Canada?', { signal: controller.signal }));
    await expect(reply).rejects.toMatchObject({ name: 'AbortError' });
    expect(knowledge.calls).toBe(0);
  });

  it('rejects with the signal reason when aborted during the search', async () => {
    const controller = new AbortController();
    const reason = new DOMException('visitor left', 'AbortError');
    const hanging: Pick<StoreOps, 'searchKnowledge'> = {
      searchKnowledge: () => {
        queueMicrotask(() => controller.abort(reason));
        return new Promise<KnowledgeHits>(() => undefined);
      },
    };
    const reply = createLocalAgent({ knowledge: hanging }).reply(demoRequest('Do you ship?', { signal: controller.signal }));
    await expect(reply).rejects.toBe(reason);
  });

  it('gives the same reply to the same request', async () => {
    const questions = ['Do you ship to Canada?', 'What tents do you have?', 'hi', 'talk to sales', 'gibberish zzzz'];
    for (const question of questions) {
      const first = await createLocalAgent({ knowledge: store }).reply(demoRequest(question));
      const second = await createLocalAgent({ knowledge: store }).reply(demoRequest(question));
      expect(second).toEqual(first);
    }
  });
});

describe('local agent: streaming', () => {
  const questions = ['Do you ship to Canada?', 'What tents do you have?', 'Hello', "That's all, thanks. Bye!", 'I want to talk to sales'];

  it('passes the reply to onDelta sentence by sentence, the pieces concatenating to the content', async () => {
    const agent = createLocalAgent({ knowledge: store });
    for (const question of questions) {
      const deltas: string[] = [];
      const reply = await agent.reply({ ...demoRequest(question), onDelta: (text: string) => deltas.push(text) });
      expect(deltas.join('')).toBe(reply.content);
      expect(deltas.every((delta) => delta !== '')).toBe(true);
    }
  });

  it('streams a multi-sentence answer in several pieces, the same reply as without streaming', async () => {
    const agent = createLocalAgent({ knowledge: store });
    const deltas: string[] = [];
    const streamed = await agent.reply({ ...demoRequest('Do you ship to Canada?'), onDelta: (text: string) => deltas.push(text) });
    const plain = await agent.reply(demoRequest('Do you ship to Canada?'));
    expect(streamed).toEqual(plain);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas[0]?.trim()).toMatch(/[.!?]\**$/);
  });
});

describe('local agent: a visitor asking for a person (DESIGN.md section 6)', () => {
  it('hands the conversation over and tells the visitor a person will answer, in their language', async () => {
    const agent = createLocalAgent({ knowledge: store });
    const english = await agent.reply(demoRequest('Can I talk to a person please?'));
    expect(english).toMatchObject({ handoff: true, sessionEnded: false, forms: [], products: [] });
    expect(english.content).toBe("Of course: I'm passing you to a person. Someone from our team will answer you here shortly.");
    const german = await agent.reply(demoRequest('Ich möchte mit einem Mitarbeiter sprechen', { language: 'de' }));
    expect(german.handoff).toBe(true);
    expect(german.content).toContain('Menschen weiter');
  });

  it('leaves a question that only mentions people to the knowledge base, and a configured form trigger wins', async () => {
    const agent = createLocalAgent({ knowledge: store });
    expect((await agent.reply(demoRequest('Do you ship to Canada?'))).handoff).toBeUndefined();
    // The demo widget's contact form lists "speak to a human" among its triggers: its owner chose the form.
    const form = await agent.reply(demoRequest('speak to a human'));
    expect(form.forms.map((surfaced) => surfaced.formId)).toEqual(['contact_sales']);
    expect(form.handoff).toBeUndefined();
  });
});
