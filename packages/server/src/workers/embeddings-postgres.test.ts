import { createLocalAgent } from '@svc/agents';
import { createCore, randomBase62, type Core, type EmbeddingProvider, type Store } from '@svc/core';
import { createPostgresStore } from '@svc/store-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { operatorAdmin } from '../cli/operator-admin.js';

const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `t_emb_${randomBase62(8).toLowerCase()}`;
const stores: Store[] = [];

afterAll(async () => {
  await Promise.allSettled(stores.map((store) => store.close()));
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`drop schema if exists "${schema}" cascade`);
  await client.end();
});

/** A provider that records every text it embeds, slow enough that the workers' rounds overlap. */
function recordingProvider(embedded: string[]): EmbeddingProvider {
  return {
    model: 'stub:recording:4',
    dimensions: 4,
    maxBatch: 5,
    async embed(texts) {
      embedded.push(...texts);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { vectors: texts.map((text) => Float32Array.from([text.length, 1, 2, 3])), tokens: 0 };
    },
  };
}

describe('the embedding job on one PostgreSQL shared by two processes', () => {
  it('never embeds a passage twice: four workers on two pools embed each passage once, charged once', async () => {
    const [one, two] = await Promise.all([
      createPostgresStore({ connectionString: DATABASE_URL, schema, max: 3 }),
      createPostgresStore({ connectionString: DATABASE_URL, schema, max: 3 }),
    ]);
    stores.push(one!, two!);
    const admin = operatorAdmin(one!);
    const account = await admin.createAccount({ name: 'Shared', credits: 1_000 });
    const documents = Array.from({ length: 30 }, (_, i) => ({ title: `Article ${i}`, content: `# Part A\n\nFirst part of article ${i}.\n\n# Part B\n\nSecond part of article ${i}.` }));
    const { knowledgeBase } = await admin.importKnowledgeBase({ accountId: account.id, content: { documents } });
    const embedded: string[] = [];
    const core = (store: Store): Core =>
      createCore({ store, agent: createLocalAgent({ knowledge: store }), cursorSecret: 'embedding-claims-cursor-secret', urlProblem: () => null, embeddings: recordingProvider(embedded) });
    const workers = [core(one!), core(one!), core(two!), core(two!)];

    await Promise.all(
      workers.map(async (worker) => {
        for (;;) {
          const round = await worker.work.embedPassages();
          if (round.failure !== undefined) throw round.failure.error;
          if (!round.busy) return;
        }
      }),
    );

    expect(embedded).toHaveLength(60);
    expect(new Set(embedded).size).toBe(60);
    expect(await one!.embeddingProgress({ knowledgeBaseIds: [knowledgeBase.id], model: 'stub:recording:4' })).toEqual([
      { knowledgeBaseId: knowledgeBase.id, passages: 60, embedded: 60 },
    ]);
    const charges = (await one!.listLedgerEntries(account.id, 100)).filter((entry) => entry.operation === 'knowledge.embed');
    expect(Math.round(charges.reduce((total, entry) => total + entry.credits.embedding, 0) * 1000) / 1000).toBe(6);
  });
});
