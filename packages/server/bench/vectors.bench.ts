/**
 * `pnpm bench` (vectors): the latency vector retrieval adds to a search (DESIGN.md section 11).
 *
 * One knowledge base of BENCH_VECTOR_PASSAGES passages (50,000) in PGlite (and PostgreSQL when SVC_BENCH_DATABASE_URL
 * or SVC_TEST_DATABASE_URL is set), each with a vector of
 * BENCH_VECTOR_DIMENSIONS (256), text and vectors synthetic but deterministic (a seeded generator). The same
 * questions are searched by full text alone and by full text fused with the exact in-process vector index, in
 * interleaved rounds so the machine's load affects both alike; the question is embedded by a local stub provider, so
 * what is measured is the index (and the store's reads), not a model. Reported: p50 and p95 of each, and the p95 of
 * the hybrid search as a ratio to full text alone in the same run.
 */
import pg from 'pg';
import { createRetriever, randomBase62, type EmbeddingProvider, type KnowledgeRetriever, type Store } from '@svc/core';
import { createPgliteStore, createPostgresStore } from '@svc/store-postgres';
import { operatorAdmin } from '../src/cli/operator-admin.js';
import { summarise, type LoadResult } from './load.js';

const PASSAGES = Number(process.env.BENCH_VECTOR_PASSAGES ?? 50_000);
const DIMENSIONS = Number(process.env.BENCH_VECTOR_DIMENSIONS ?? 256);
const QUERIES = Number(process.env.BENCH_VECTOR_QUERIES ?? 200);
const ROUNDS = 5;
/** Passages per document: one per Markdown section. */
const SECTIONS = 10;
const MODEL = `bench:seeded:${DIMENSIONS}`;
const POSTGRES_URL = process.env.SVC_BENCH_DATABASE_URL ?? process.env.SVC_TEST_DATABASE_URL;

/** Mulberry32: a small seeded generator, so every run searches the same knowledge base with the same questions. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const random = seeded(20_261_127);
/** A vocabulary of 3,000 made-up words, drawn with a skew so some are common and most rare, as in real text. */
const VOCABULARY = Array.from({ length: 3_000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}x`);
const word = (): string => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 2)]!;
const words = (n: number): string => Array.from({ length: n }, word).join(' ');

function seededVector(seed: number): Float32Array {
  const next = seeded(seed);
  return Float32Array.from({ length: DIMENSIONS }, () => next() * 2 - 1);
}

/** The stub provider: a question's vector from its text, at once. */
const stub: EmbeddingProvider = {
  model: MODEL,
  dimensions: DIMENSIONS,
  maxBatch: 1_000,
  async embed(texts) {
    return { vectors: texts.map((text) => seededVector([...text].reduce((hash, c) => (hash * 31 + c.charCodeAt(0)) >>> 0, 7))), tokens: 0 };
  },
};

interface Figures {
  name: string;
  vectors: number;
  setup: { documentsS: number; vectorsS: number; indexLoadMs: number };
  text: LoadResult;
  hybrid: LoadResult;
}

/** Fills `store` with the knowledge base and its vectors, then measures both retrievals on it. */
async function benchStore(name: string, store: Store): Promise<Figures> {
  const admin = operatorAdmin(store);
  const account = await admin.createAccount({ name: 'Bench', credits: 1e9 });
  let started = performance.now();
  const { knowledgeBase } = await admin.importKnowledgeBase({ accountId: account.id, content: { documents } });
  const documentsS = (performance.now() - started) / 1000;

  // The vectors, through the embedding job's own store operations (claim, save), without a provider in the way.
  started = performance.now();
  let vectors = 0;
  for (;;) {
    const claimed = await store.claimPassagesToEmbed({ model: MODEL, owner: 'wrk_bench', now: new Date(), leaseMs: 600_000, limit: 2_000 });
    if (claimed.length === 0) break;
    const saved = await store.savePassageVectors({
      model: MODEL,
      owner: 'wrk_bench',
      vectors: claimed.map((passage, i) => ({ ...passage, vector: seededVector(vectors + i + 1) })),
    });
    vectors += saved.length;
  }
  const vectorsS = (performance.now() - started) / 1000;

  const textOnly = createRetriever({ store });
  const hybrid = createRetriever({ store, embeddings: stub });
  const search = (retriever: KnowledgeRetriever, text: string) => retriever.retrieve({ knowledgeBaseIds: [knowledgeBase.id], text, limit: 5 });

  // The first hybrid search loads the index: measured apart, it is paid once per process and per change.
  started = performance.now();
  const first = await search(hybrid, questions[0]!);
  const indexLoadMs = performance.now() - started;
  if (!first.passages.some((passage) => passage.retrievers.includes('vector'))) throw new Error('the vector retriever found nothing');
  for (const question of questions.slice(0, 20)) await Promise.all([search(textOnly, question), search(hybrid, question)]);

  const measure = async (retriever: KnowledgeRetriever, batch: string[]): Promise<number[]> => {
    const latencies: number[] = [];
    for (const question of batch) {
      const t0 = performance.now();
      await search(retriever, question);
      latencies.push(performance.now() - t0);
    }
    return latencies;
  };
  const text: number[] = [];
  const both: number[] = [];
  const perRound = Math.ceil(QUERIES / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    const batch = questions.slice(round * perRound, (round + 1) * perRound);
    text.push(...(await measure(textOnly, batch)));
    both.push(...(await measure(hybrid, batch)));
  }
  return { name, vectors, setup: { documentsS, vectorsS, indexLoadMs }, text: summarise(text, 1), hybrid: summarise(both, 1) };
}

const documents = Array.from({ length: Math.ceil(PASSAGES / SECTIONS) }, (_, d) => ({
  title: `Article ${d} ${words(3)}`,
  content: Array.from({ length: SECTIONS }, (_, s) => `# Section ${s}\n\n${words(40)}.`).join('\n\n'),
}));
const questions = Array.from({ length: QUERIES }, () => words(5));

const results: Figures[] = [];
const pglite = await createPgliteStore();
try {
  results.push(await benchStore('PGlite', pglite));
} finally {
  await pglite.close();
}
if (POSTGRES_URL) {
  const schema = `bench_${randomBase62(8).toLowerCase()}`;
  const store = await createPostgresStore({ connectionString: POSTGRES_URL, schema, max: 4 });
  try {
    results.push(await benchStore('PostgreSQL', store));
  } finally {
    await store.close();
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}

const p95 = (r: LoadResult): number => r.latencies[Math.min(r.latencies.length - 1, Math.floor(0.95 * r.latencies.length))]!;
const line = (name: string, r: LoadResult, text: LoadResult): string =>
  `${name.padEnd(60)} ${r.p50Ms.toFixed(2).padStart(9)} ${p95(r).toFixed(2).padStart(9)} ${(p95(r) / p95(text)).toFixed(3).padStart(12)}`;

console.log(
  `\nSearch on one knowledge base of ${PASSAGES.toLocaleString('en')} passages with ${DIMENSIONS}-dimension vectors,` +
    ` ${QUERIES} questions each, interleaved in ${ROUNDS} rounds, Node ${process.version}\n`,
);
console.log(`${'measurement'.padEnd(60)} ${'p50 ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'p95 vs text'.padStart(12)}`);
for (const r of results) {
  console.log(line(`${r.name}: full text alone`, r.text, r.text));
  console.log(line(`${r.name}: full text + exact vector index, fused (RRF)`, r.hybrid, r.text));
}
console.log('');
for (const r of results) {
  const { documentsS, vectorsS, indexLoadMs } = r.setup;
  console.log(`${r.name}: ${r.vectors.toLocaleString('en')} vectors; documents stored in ${documentsS.toFixed(1)} s, vectors in ${vectorsS.toFixed(1)} s; index loaded by the first search in ${indexLoadMs.toFixed(0)} ms`);
}
if (!POSTGRES_URL) console.log('\nPostgreSQL: not measured; set SVC_BENCH_DATABASE_URL (or SVC_TEST_DATABASE_URL) to include it.');
