import { createEmbeddingProvider } from '@svc/agents';
import { useLoopbackServer, type EmbeddingsRequest, type Handler } from '@svc/agents/testing';
import type { EmbeddingProvider } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness.js';

// The embedding side of retrieval (DESIGN.md section 11) end to end: the job computes vectors through a real
// OpenAI-compatible /embeddings server on loopback, the search fuses them with full text, outages degrade.

const server = useLoopbackServer();
const DIMENSIONS = 8;

/**
 * A toy embedding model that knows a few topics: a text's vector counts its words of each topic, so a paraphrase
 * with no word in common with a passage ("send it back and get my money" / "refunds") lands next to it.
 */
const TOPICS = [
  ['refund', 'return', 'back', 'money'],
  ['ship', 'parcel', 'courier', 'deliver'],
  ['gift', 'card', 'voucher'],
];
function topicVector(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return Array.from({ length: DIMENSIONS }, (_, i) => {
    const topic = TOPICS[i];
    return topic === undefined ? 0.05 : words.filter((word) => topic.some((stem) => word.startsWith(stem))).length;
  });
}

const answer: Handler<EmbeddingsRequest> = (request) => ({
  json: {
    object: 'list',
    data: request.body.input.map((text, index) => ({ object: 'embedding', index, embedding: topicVector(text) })),
    model: request.body.model,
    usage: { prompt_tokens: request.body.input.length, total_tokens: request.body.input.length },
  },
});
const outage: Handler<EmbeddingsRequest> = () => ({ status: 503, json: { error: { message: 'overloaded', type: 'server_error' } } });

function provider(model = 'topics-v1'): EmbeddingProvider {
  return createEmbeddingProvider(
    { provider: 'openai-compatible', model, dimensions: DIMENSIONS, baseURL: `${server.origin}/v1`, apiKey: undefined },
    { maxRetries: 0, timeoutMs: 2_000 },
  );
}

const REFUNDS = { title: 'Refund policy', content: '# Refund policy\n\nRefunds are issued within thirty days.', url: 'https://shop.example/refunds' };
const SHIPPING = { title: 'Shipping', content: '# Shipping\n\nParcels leave our warehouse daily by courier.' };

interface Setup {
  h: Harness;
  kb: string;
  write: string;
  errors: Array<[string, unknown]>;
}

/** A harness with the embedding provider, and a knowledge base of its account holding REFUNDS and SHIPPING. */
async function setUp(embeddings = provider(), store?: Harness['store']): Promise<Setup> {
  const errors: Array<[string, unknown]> = [];
  const h = await createHarness({ embeddings, onProviderError: (name, error) => errors.push([name, error]), ...(store ? { store } : {}) });
  const write = await h.newKey(['knowledge:write']);
  const kb: string = (await h.post('/knowledge-bases', { name: 'Help' }, { key: write })).body.data.id;
  for (const doc of [REFUNDS, SHIPPING]) await h.post(`/knowledge-bases/${kb}/documents`, doc, { key: write });
  return { h, kb, write, errors };
}

/** Runs the job's rounds until one finds nothing; the passages embedded. */
async function embedAll(h: Harness): Promise<number> {
  let total = 0;
  for (;;) {
    const round = await h.runtime.core.work.embedPassages();
    if (round.failure !== undefined) throw round.failure.error;
    total += round.embedded;
    if (!round.busy) return total;
  }
}

const progress = async (s: Setup) => (await s.h.get(`/knowledge-bases/${s.kb}`, { key: s.write })).body.data.embeddings;
const embeddingCharges = async (h: Harness) =>
  (await h.store.listLedgerEntries(h.account.id, 100)).filter((entry) => entry.operation === 'knowledge.embed').map((entry) => entry.credits.embedding);
const sum = (values: number[]): number => Math.round(values.reduce((a, b) => a + b, 0) * 1000) / 1000;

describe('the embedding job', () => {
  it('embeds the passages of added documents through the provider, shows progress and charges the account per passage', async () => {
    const endpoint = server.route('/v1/embeddings', [answer]);
    const s = await setUp();
    const passages = (await progress(s)).passages;
    expect(await progress(s)).toEqual({ model: 'openai-compatible:topics-v1:8', embedded: 0, passages: 2 });
    const before = (await s.h.store.getAccount(s.h.account.id))!.balance;

    // The harness's demo knowledge base is embedded too: every passage of every knowledge base gets a vector.
    const embedded = await embedAll(s.h);

    expect(await progress(s)).toEqual({ model: 'openai-compatible:topics-v1:8', embedded: passages, passages });
    const inputs = endpoint.requests.flatMap((request) => request.body.input);
    expect(inputs).toContain('Refund policy\n\nRefund policy\n\nRefunds are issued within thirty days.');
    expect(inputs).toHaveLength(embedded);
    expect(sum(await embeddingCharges(s.h))).toBe(Math.round(embedded * 0.1 * 1000) / 1000);
    expect((await s.h.store.getAccount(s.h.account.id))!.balance).toBeCloseTo(before - embedded * 0.1, 6);
    expect(await embedAll(s.h)).toBe(0);
  });

  it('embeds again only the passages of a replaced document', async () => {
    const endpoint = server.route('/v1/embeddings', [answer]);
    const s = await setUp();
    await embedAll(s.h);
    const documents = (await s.h.get(`/knowledge-bases/${s.kb}/documents`, { key: s.write })).body.data;
    const shipping = documents.find((doc: { title: string }) => doc.title === 'Shipping').id;
    await s.h.request('PUT', `/knowledge-bases/${s.kb}/documents/${shipping}`, { title: 'Shipping', content: 'Parcels ship within two days.' }, { key: s.write });
    expect(await progress(s)).toMatchObject({ embedded: 1, passages: 2 });
    const sent = endpoint.requests.length;

    expect(await embedAll(s.h)).toBe(1);
    expect(endpoint.requests.slice(sent).flatMap((request) => request.body.input)).toEqual(['Shipping\n\nParcels ship within two days.']);
    expect(await progress(s)).toMatchObject({ embedded: 2, passages: 2 });
  });

  it('computes every vector again when the model changes, dropping the old model’s', async () => {
    server.route('/v1/embeddings', [answer]);
    const s = await setUp(provider('topics-v1'));
    const all = await embedAll(s.h);
    // The same database, restarted with another model.
    const next = await createHarness({ store: s.h.store, embeddings: provider('topics-v2') });
    const progressV2 = async () => (await next.get(`/knowledge-bases/${s.kb}`, { key: s.write })).body.data.embeddings;
    expect(await progressV2()).toEqual({ model: 'openai-compatible:topics-v2:8', embedded: 0, passages: 2 });

    // Its own demo knowledge base is new: it has more passages than the first run embedded.
    expect(await embedAll(next)).toBeGreaterThan(all);
    expect(await progressV2()).toEqual({ model: 'openai-compatible:topics-v2:8', embedded: 2, passages: 2 });
    expect(await s.h.store.listPassageVectors({ knowledgeBaseId: s.kb, model: 'openai-compatible:topics-v1:8', limit: 10 })).toEqual([]);
  });

  it('backs off while the provider is down, charging nothing, and catches up when it recovers', async () => {
    const endpoint = server.route('/v1/embeddings', [outage, outage, answer]);
    const s = await setUp();

    const first = await s.h.runtime.core.work.embedPassages();
    const second = await s.h.runtime.core.work.embedPassages();

    expect(first).toMatchObject({ embedded: 0, busy: false, failure: { retryInMs: 1_000 } });
    expect(second).toMatchObject({ embedded: 0, busy: false, failure: { retryInMs: 2_000 } });
    expect(String((second.failure?.error as Error).message)).toContain('HTTP 503');
    expect(await progress(s)).toMatchObject({ embedded: 0 });
    expect(await embeddingCharges(s.h)).toEqual([]);
    // The failed batches were released: the recovered provider gets them at once, not after a lease.
    const recovered = await s.h.runtime.core.work.embedPassages();
    expect(recovered.failure).toBeUndefined();
    expect(recovered.embedded).toBe(endpoint.requests[2]!.body.input.length);
    await embedAll(s.h);
    expect(await progress(s)).toMatchObject({ embedded: 2, passages: 2 });
  });

  it('runs in the workers, woken when a document is added', async () => {
    server.route('/v1/embeddings', [answer]);
    const s = await setUp();
    // A poll far away: only the wake-up of the document's addition can start the job in time.
    const workers = s.h.runtime.startWorkers({ embeddingPollMs: 600_000 });
    try {
      await waitFor(async () => (await progress(s)).embedded === 2);
      await s.h.post(`/knowledge-bases/${s.kb}/documents`, { title: 'Gift cards', content: 'Gift cards never expire.' }, { key: s.write });
      await waitFor(async () => (await progress(s)).embedded === 3);
      expect(await progress(s)).toMatchObject({ embedded: 3, passages: 3 });
    } finally {
      await workers.stop();
    }
  });
});

describe('vector retrieval', () => {
  const search = async (s: Setup, query: string) => (await s.h.post(`/knowledge-bases/${s.kb}/search`, { query }, { key: s.write })).body;

  it('finds a paraphrase that shares no word with the passage, with its title, url and content', async () => {
    const endpoint = server.route('/v1/embeddings', [answer]);
    const s = await setUp();
    await embedAll(s.h);
    const sent = endpoint.requests.length;

    const found = await search(s, 'Can I send my purchase back and get my money?');

    expect(found.data.passages[0]).toMatchObject({
      title: 'Refund policy',
      url: 'https://shop.example/refunds',
      content: 'Refund policy\n\nRefunds are issued within thirty days.',
      rank: 0,
      confidence: 0,
      retrievers: ['vector'],
    });
    // A passage only vector search found never lets the agent answer on its own (DESIGN.md section 11).
    expect(found.data.confidence).toBe(0);
    expect(endpoint.requests.slice(sent).map((request) => request.body.input)).toEqual([['Can I send my purchase back and get my money?']]);
    // The question's embedding is metered and charged with the search.
    expect(found.meta.creditsConsumed).toBe(1.1);
  });

  it('fuses what both retrievers found, keeping the lexical confidence', async () => {
    server.route('/v1/embeddings', [answer]);
    const s = await setUp();
    await embedAll(s.h);

    const found = await search(s, 'How long do refunds take?');

    expect(found.data.passages[0]).toMatchObject({ title: 'Refund policy', retrievers: ['text', 'vector'] });
    // First in both lists: 1/(60+1) from each.
    expect(found.data.passages[0].score).toBeCloseTo(2 / 61, 6);
    server.route('/v1/embeddings', [outage]);
    const textOnly = await search(s, 'How long do refunds take?');
    expect(textOnly.data.passages[0]).toMatchObject({ title: 'Refund policy', retrievers: ['text'] });
    expect(found.data.passages[0].confidence).toBeGreaterThan(0);
    expect(found.data.passages[0].confidence).toBe(textOnly.data.passages[0].confidence);
  });

  it('degrades to full text when the provider is down, telling onProviderError, and the turn still answers', async () => {
    server.route('/v1/embeddings', [answer]);
    const s = await setUp();
    await embedAll(s.h);
    server.route('/v1/embeddings', [outage]);

    const found = await search(s, 'How long do refunds take?');

    expect(found.data.passages[0]).toMatchObject({ title: 'Refund policy', retrievers: ['text'] });
    expect(found.meta.creditsConsumed).toBe(1);
    expect(s.errors.map(([name]) => name)).toEqual(['embedding']);
    const sessionId = await s.h.session();
    const turn = await s.h.post(`${s.h.base}/${sessionId}/messages`, { content: 'How do I return an item?' });
    expect(turn.status).toBe(200);
    expect(s.errors.map(([name]) => name)).toEqual(['embedding', 'embedding']);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
