import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalAgent } from '@svc/agents';
import {
  createCore,
  createMemoryStore,
  createRetriever,
  DEFAULT_CONFIDENCE_THRESHOLD,
  defaultIds,
  principalOf,
  randomBase62,
  type Core,
  type Ids,
  type Principal,
  type Store,
} from '@svc/core';
import { createPgliteStore } from '@svc/store-postgres';
import { createAttributor, type AttributableEntry } from './attribution.js';
import { createBm25Index } from './bm25.js';
import type { Dataset, FaqEntry, LabelledQuery } from './dataset.js';

export type StoreKind = 'pglite' | 'memory';
export const STORE_KINDS: readonly StoreKind[] = ['pglite', 'memory'];

export interface EvaluationOptions {
  dataset: Dataset;
  store: StoreKind;
  /** Only the first `limit` queries, in file order (a quick run); all of them by default. */
  limit?: number | undefined;
  /** Also return one record per query. */
  details?: boolean | undefined;
  /** The widget's confidence threshold; default the service's default. */
  threshold?: number | undefined;
}

/** How many of `total`, and which share of it (0 when `total` is 0). */
export interface Rate {
  count: number;
  share: number;
}

export interface SearchFigures {
  top1: Rate;
  top3: Rate;
}

export type Verdict = 'right' | 'wrong' | 'unanswered';

export interface QueryOutcome {
  query: string;
  /** The labelled entry, or null when the FAQ does not answer the query. */
  expected: string | null;
  /** 1-based rank of the labelled entry among the documents search returned (null: not returned, or unanswerable). */
  serviceRank: number | null;
  bm25Rank: number | null;
  /** The entry the reply names in its `sources`, or null when it cited none (it did not know). */
  cited: string | null;
  /** The entry the reply's text quotes or names (eval/attribution.ts), a check that `sources` tells the truth. */
  quoted: string | null;
  /** The retrieval confidence the reply was decided on. */
  confidence: number | null;
  /** With no threshold (0): the entry the agent would have answered from. */
  unguarded: string | null;
  verdict: Verdict;
}

/** One point of the wrong-versus-unanswered curve: the replies had the widget's threshold been `threshold`. */
export interface CurvePoint {
  threshold: number;
  /** Over the answerable queries. */
  right: number;
  wrong: number;
  unanswered: number;
  /** Over the queries the FAQ does not answer: a citation is wrong. */
  unanswerableWrong: number;
  /** Over all queries: replies citing a wrong entry. */
  wrongOverall: number;
}

export interface EvaluationReport {
  dataset: string;
  store: StoreKind;
  entries: number;
  /** FAQ questions longer than a document title may be, stored shortened (see {@link documentTitle}). */
  shortenedTitles: number;
  queries: { total: number; answerable: number; unanswerable: number };
  /** Over the answerable queries: is the labelled entry ranked first, or among the first three? */
  search: {
    service: SearchFigures;
    bm25: SearchFigures;
    /** Service top-1 share over BM25 top-1 share; null when BM25 placed nothing first. */
    top1Ratio: number | null;
  };
  replies: {
    /** The widget's confidence threshold the replies were given under. */
    threshold: number;
    answerable: { total: number; right: Rate; wrong: Rate; unanswered: Rate };
    /** "Unanswered" is the right reply here; "wrong" cites some entry anyway. */
    unanswerable: { total: number; unanswered: Rate; wrong: Rate };
    /** Over all queries: replies whose sources name a wrong entry (answerable ones citing another, unanswerable ones citing any). */
    wrongOverall: Rate;
    /** Answered replies whose text quotes the entry their sources name. */
    sourcesMatchText: Rate;
  };
  /** The same replies under other thresholds, from each reply's confidence and what it cited with no threshold. */
  curve: CurvePoint[];
  /** Wall-clock milliseconds; the only figure that differs between two runs. */
  timing: { setupMs: number; searchMs: number; repliesMs: number; totalMs: number };
  /** With `details`: every query's outcome, in file order. */
  outcomes?: QueryOutcome[];
}

/** The service's document title limit (the knowledge file's and the document endpoint's schema). */
export const MAX_TITLE_CHARS = 300;
/** Passages asked of search per query: the schema's maximum, so that three distinct documents come back even when an answer spans several passages. */
const SEARCH_LIMIT = 20;
/** The language the widget and its visitors speak: the widget's default, and the session's. */
const LANGUAGE = 'en';

/**
 * The title a question is stored under: the question itself, or when longer than the service allows, its whole
 * sentences that fit (else its words that fit, then "…").
 */
export function documentTitle(question: string): string {
  if (question.length <= MAX_TITLE_CHARS) return question;
  const head = question.slice(0, MAX_TITLE_CHARS);
  const sentenceEnd = Math.max(head.lastIndexOf('? '), head.lastIndexOf('. '), head.lastIndexOf('! '));
  if (sentenceEnd > 0) return head.slice(0, sentenceEnd + 1);
  return `${head.slice(0, head.lastIndexOf(' ', MAX_TITLE_CHARS - 1)).trimEnd()}…`;
}

/**
 * Runs the evaluation on a fresh store: the FAQ imported as one knowledge base, each query searched with the
 * service's own search and plain BM25, then asked as a visitor's message in a session of its own. Deterministic:
 * the same dataset and store give the same figures (timing aside).
 */
export async function runEvaluation(options: EvaluationOptions): Promise<EvaluationReport> {
  const started = performance.now();
  const queries = options.limit === undefined ? options.dataset.queries : options.dataset.queries.slice(0, options.limit);
  const opened = await openStore(options.store);
  try {
    const service = await setUpService(opened.store, options.dataset.faq);
    try {
      const setupDone = performance.now();
      const searched = await rankAll({ service, faq: options.dataset.faq, queries });
      const searchDone = performance.now();
      const threshold = options.threshold ?? DEFAULT_CONFIDENCE_THRESHOLD;
      await service.core.admin.updateWidget(service.accountId, service.widgetId, { confidenceThreshold: 0 });
      const unguarded = await replyAll({ service, queries, label: 'unguarded' });
      await service.core.admin.updateWidget(service.accountId, service.widgetId, { confidenceThreshold: threshold });
      const replies = await replyAll({ service, queries, label: 'reply' });
      const repliesDone = performance.now();
      const outcomes = queries.map((labelled, i): QueryOutcome => {
        const reply = replies[i]!;
        return {
          query: labelled.query,
          expected: labelled.entryId,
          serviceRank: searched.service[i] ?? null,
          bm25Rank: searched.bm25[i] ?? null,
          cited: reply.cited,
          quoted: reply.quoted,
          confidence: reply.confidence,
          unguarded: unguarded[i]?.cited ?? null,
          verdict: verdictOf(labelled.entryId, reply.cited),
        };
      });
      return {
        ...summarise({ dataset: options.dataset, store: options.store, outcomes, threshold }),
        shortenedTitles: service.entries.filter((entry, i) => entry.title !== options.dataset.faq[i]?.question).length,
        timing: {
          setupMs: Math.round(setupDone - started),
          searchMs: Math.round(searchDone - setupDone),
          repliesMs: Math.round(repliesDone - searchDone),
          totalMs: Math.round(performance.now() - started),
        },
        ...(options.details ? { outcomes } : {}),
      };
    } finally {
      await service.core.work.close();
    }
  } finally {
    await opened.close();
  }
}

function verdictOf(expected: string | null, cited: string | null): Verdict {
  if (cited === null) return 'unanswered';
  return cited === expected ? 'right' : 'wrong';
}

interface OpenedStore {
  store: Store;
  close(): Promise<void>;
}

/** PGlite in a temporary directory (as the server runs without DATABASE_URL), removed afterwards; or the memory store. */
async function openStore(kind: StoreKind): Promise<OpenedStore> {
  if (kind === 'memory') {
    const store = createMemoryStore();
    return { store, close: () => store.close() };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-eval-'));
  try {
    const store = await createPgliteStore({ dataDir });
    return {
      store,
      async close() {
        try {
          await store.close();
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

interface Service {
  core: Core;
  store: Store;
  accountId: string;
  knowledgeBaseId: string;
  widgetId: string;
  /** A server key's principal: writes and searches the knowledge base. */
  server: Principal;
  /** The widget's public key's principal: chats as a visitor on the widget does. */
  visitor: Principal;
  /** The document of each FAQ entry (same order as the FAQ). */
  entries: Array<AttributableEntry & { documentId: string }>;
}

/**
 * Ids that count up instead of being random. Search breaks equal ranks by document id (PostgreSQL orders by rank,
 * then document id), so random ids would let the order of tied documents, and with it the figures, change from run
 * to run; counting ids keep ties in FAQ order. Message ids keep their time-ordered form.
 */
function countingIds(): Ids {
  let next = 0;
  return {
    random: (prefix) => `${prefix}_${String(++next).padStart(22, '0')}`,
    sortable: (prefix, at) => defaultIds.sortable(prefix, at),
  };
}

/**
 * The core as the server wires it for a widget (packages/server/src/runtime.ts): the store, the offline local agent
 * reading that store's knowledge bases. No callbacks or webhooks are configured, so no URL is ever delivered to.
 * Then an account, the FAQ as one knowledge base of documents, a widget answering from it, and the keys.
 */
async function setUpService(store: Store, faq: readonly FaqEntry[]): Promise<Service> {
  // One retrieval for the search endpoint and the agent, as the server wires them.
  const retriever = createRetriever({ store });
  const core = createCore({
    store,
    retriever,
    agent: createLocalAgent({ knowledge: retriever }),
    cursorSecret: randomBase62(43),
    ids: countingIds(),
    urlProblem: () => 'the evaluation delivers nothing',
  });
  const account = await core.admin.createAccount({ name: 'Answer quality evaluation', credits: 1_000_000 });
  const serverKey = await core.admin.createApiKey({ accountId: account.id, name: 'eval', scopes: ['knowledge:read', 'knowledge:write'] });
  const server = principalOf(serverKey.apiKey);
  const { data: knowledgeBase } = await core.api.knowledge.create(server, { name: 'FAQ' });
  const entries: Service['entries'] = [];
  for (const entry of faq) {
    const title = documentTitle(entry.question);
    const { data: document } = await core.api.knowledge.addDocument(server, knowledgeBase.id, { title, content: entry.answer });
    entries.push({ id: entry.id, title, answer: entry.answer, documentId: document.id });
  }
  const widget = await core.admin.createWidget({ accountId: account.id, name: 'FAQ', language: LANGUAGE, knowledgeBaseIds: [knowledgeBase.id] });
  const publicKey = await core.admin.createPublicKey(account.id, { widgetId: widget.id, origins: ['https://eval.example'] });
  return { core, store, accountId: account.id, knowledgeBaseId: knowledgeBase.id, widgetId: widget.id, server, visitor: principalOf(publicKey.apiKey), entries };
}

/** 1-based rank of `wanted` in `ranked`, or null. */
function rankOf(ranked: readonly string[], wanted: string): number | null {
  const index = ranked.indexOf(wanted);
  return index === -1 ? null : index + 1;
}

/** Each answerable query's labelled entry's rank, by the service's search and by BM25; null for unanswerable ones. */
async function rankAll(input: {
  service: Service;
  faq: readonly FaqEntry[];
  queries: readonly LabelledQuery[];
}): Promise<{ service: Array<number | null>; bm25: Array<number | null> }> {
  const { service, faq, queries } = input;
  const entryOfDocument = new Map(service.entries.map((entry) => [entry.documentId, entry.id]));
  const bm25 = createBm25Index(faq.map((entry) => `${entry.question}\n${entry.answer}`));
  const serviceRanks: Array<number | null> = [];
  const bm25Ranks: Array<number | null> = [];
  for (const { query, entryId } of queries) {
    if (entryId === null) {
      serviceRanks.push(null);
      bm25Ranks.push(null);
      continue;
    }
    const { data } = await service.core.api.knowledge.search(service.server, service.knowledgeBaseId, { query, language: LANGUAGE, limit: SEARCH_LIMIT });
    // Passages, best first; a document split into several passages counts once, at its best one.
    const documents = [...new Set(data.passages.map((passage) => entryOfDocument.get(passage.documentId) ?? passage.documentId))];
    serviceRanks.push(rankOf(documents, entryId));
    bm25Ranks.push(rankOf(bm25.search(query).map((hit) => faq[hit.index]!.id), entryId));
  }
  return { service: serviceRanks, bm25: bm25Ranks };
}

interface Replied {
  /** The entry the reply's `sources` name. */
  cited: string | null;
  /** The entry its text quotes or names. */
  quoted: string | null;
  confidence: number | null;
}

/**
 * Each query sent as the first message of a new visitor session (sync, as a widget without streaming): the entry its
 * `sources` name, the entry its text quotes, and the confidence it was decided on (read from the stored message).
 */
async function replyAll(input: { service: Service; queries: readonly LabelledQuery[]; label: string }): Promise<Replied[]> {
  const { core, visitor, widgetId } = input.service;
  const attributor = createAttributor(input.service.entries);
  const entryOfDocument = new Map(input.service.entries.map((entry) => [entry.documentId, entry.id]));
  const replied: Replied[] = [];
  for (const [i, { query }] of input.queries.entries()) {
    const { data: session } = await core.api.createSession(visitor, widgetId, { visitorId: `eval-${input.label}-${i + 1}`, language: LANGUAGE });
    const turn = await core.api.sendMessage(visitor, widgetId, session.sessionId, { content: query });
    if (!('content' in turn.data)) throw new Error(`No reply within the sync wait for query ${i + 1} (${JSON.stringify(query)}).`);
    const source = turn.data.sources[0];
    const stored = await input.service.store.getMessage(widgetId, session.sessionId, turn.data.messageId);
    replied.push({
      cited: source === undefined ? null : (entryOfDocument.get(source.documentId) ?? source.documentId),
      quoted: attributor.attribute(turn.data.content).entryId,
      confidence: stored?.confidence ?? null,
    });
  }
  return replied;
}

/** Thresholds of the curve: every 0.05 from 0 to 0.8, where nearly every reply abstains, and the one the replies were given. */
function curveThresholds(threshold: number): number[] {
  return [...new Set([...Array.from({ length: 17 }, (_, i) => i / 20), threshold])].sort((a, b) => a - b);
}

/** Replies under `threshold`: a reply answers (citing what it cited with no threshold) when its confidence reaches it. */
function curvePoint(outcomes: readonly QueryOutcome[], threshold: number): CurvePoint {
  const verdicts = outcomes.map((outcome) => ({
    answerable: outcome.expected !== null,
    verdict: verdictOf(outcome.expected, (outcome.confidence ?? 0) >= threshold ? outcome.unguarded : null),
  }));
  const answerable = verdicts.filter((v) => v.answerable);
  const unanswerable = verdicts.filter((v) => !v.answerable);
  const share = (list: typeof verdicts, verdict: Verdict): number => (list.length === 0 ? 0 : list.filter((v) => v.verdict === verdict).length / list.length);
  return {
    threshold,
    right: share(answerable, 'right'),
    wrong: share(answerable, 'wrong'),
    unanswered: share(answerable, 'unanswered'),
    unanswerableWrong: share(unanswerable, 'wrong'),
    wrongOverall: share(verdicts, 'wrong'),
  };
}

const rate = (count: number, total: number): Rate => ({ count, share: total === 0 ? 0 : count / total });

function searchFigures(ranks: ReadonlyArray<number | null>): SearchFigures {
  return {
    top1: rate(ranks.filter((rank) => rank === 1).length, ranks.length),
    top3: rate(ranks.filter((rank) => rank !== null && rank <= 3).length, ranks.length),
  };
}

function summarise(input: {
  dataset: Dataset;
  store: StoreKind;
  outcomes: readonly QueryOutcome[];
  threshold: number;
}): Omit<EvaluationReport, 'timing' | 'outcomes' | 'shortenedTitles'> {
  const answerable = input.outcomes.filter((outcome) => outcome.expected !== null);
  const unanswerable = input.outcomes.filter((outcome) => outcome.expected === null);
  const count = (outcomes: readonly QueryOutcome[], verdict: Verdict): number => outcomes.filter((outcome) => outcome.verdict === verdict).length;
  const service = searchFigures(answerable.map((outcome) => outcome.serviceRank));
  const bm25 = searchFigures(answerable.map((outcome) => outcome.bm25Rank));
  return {
    dataset: input.dataset.name,
    store: input.store,
    entries: input.dataset.faq.length,
    queries: { total: input.outcomes.length, answerable: answerable.length, unanswerable: unanswerable.length },
    search: { service, bm25, top1Ratio: bm25.top1.share === 0 ? null : service.top1.share / bm25.top1.share },
    replies: {
      threshold: input.threshold,
      answerable: {
        total: answerable.length,
        right: rate(count(answerable, 'right'), answerable.length),
        wrong: rate(count(answerable, 'wrong'), answerable.length),
        unanswered: rate(count(answerable, 'unanswered'), answerable.length),
      },
      unanswerable: {
        total: unanswerable.length,
        unanswered: rate(count(unanswerable, 'unanswered'), unanswerable.length),
        wrong: rate(count(unanswerable, 'wrong'), unanswerable.length),
      },
      wrongOverall: rate(count(input.outcomes, 'wrong'), input.outcomes.length),
      sourcesMatchText: rate(
        input.outcomes.filter((outcome) => outcome.cited !== null && outcome.quoted === outcome.cited).length,
        input.outcomes.filter((outcome) => outcome.cited !== null).length,
      ),
    },
    curve: curveThresholds(input.threshold).map((threshold) => curvePoint(input.outcomes, threshold)),
  };
}
