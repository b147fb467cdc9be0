/** The credit buckets of spec 2.6, in the order they are documented. Every reply carries all of them. */
export const CREDIT_BUCKETS = [
  'chat',
  'retrieval',
  'orchestration',
  'embedding',
  'rerank',
  'plugin',
  'pluginRerank',
  'crawler',
] as const;

export type CreditBucket = (typeof CREDIT_BUCKETS)[number];
export type Credits = Record<CreditBucket, number>;

export function zeroCredits(): Credits {
  return { chat: 0, retrieval: 0, orchestration: 0, embedding: 0, rerank: 0, plugin: 0, pluginRerank: 0, crawler: 0 };
}

/** `meta.creditsConsumed`: the sum of the buckets, rounded to avoid float noise (0.1 + 0.2). */
export function totalCredits(credits: Credits): number {
  let sum = 0;
  for (const bucket of CREDIT_BUCKETS) sum += credits[bucket];
  return Math.round(sum * 1000) / 1000;
}

/** Work an agent did in one turn, measured in units the pricing table turns into credits. */
export interface AgentMeters {
  /** Knowledge or product searches run. */
  retrievals: number;
  /** Texts embedded (vector search). */
  embeddings: number;
  /** Rerank calls. */
  reranks: number;
  /** Plugin (external tool) calls. */
  pluginCalls: number;
  /** Rerank calls made by plugins. */
  pluginReranks: number;
  /** Pages crawled. */
  crawledPages: number;
  /** Orchestration steps beyond the first model call (tool round trips). */
  orchestrationSteps: number;
}

export function zeroMeters(): AgentMeters {
  return { retrievals: 0, embeddings: 0, reranks: 0, pluginCalls: 0, pluginReranks: 0, crawledPages: 0, orchestrationSteps: 0 };
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Flat prices of non-turn operations and unit prices of turn work. Defaults: DESIGN.md section 3. */
export interface Pricing {
  createSession: number;
  getSession: number;
  endSession: number;
  rateSession: number;
  historyPage: number;
  productsPage: number;
  /** Chat credits per 1,000 tokens (input plus output); a turn costs at least `chatMinimum`. */
  chatPer1kTokens: number;
  chatMinimum: number;
  retrieval: number;
  embedding: number;
  rerank: number;
  plugin: number;
  pluginRerank: number;
  crawlerPage: number;
  orchestrationStep: number;
}

export const DEFAULT_PRICING: Pricing = Object.freeze({
  createSession: 1,
  getSession: 1,
  endSession: 1,
  rateSession: 1,
  historyPage: 1,
  productsPage: 1,
  chatPer1kTokens: 1,
  chatMinimum: 1,
  retrieval: 1,
  embedding: 0.1,
  rerank: 0.5,
  plugin: 1,
  pluginRerank: 0.5,
  crawlerPage: 1,
  orchestrationStep: 0.5,
});

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** Prices one agent turn. Pure, so the same usage always costs the same. */
export function priceTurn(pricing: Pricing, usage: TokenUsage, meters: AgentMeters): Credits {
  const tokens = usage.inputTokens + usage.outputTokens;
  return {
    chat: round3(Math.max(pricing.chatMinimum, Math.ceil(tokens / 1000) * pricing.chatPer1kTokens)),
    retrieval: round3(meters.retrievals * pricing.retrieval),
    orchestration: round3(meters.orchestrationSteps * pricing.orchestrationStep),
    embedding: round3(meters.embeddings * pricing.embedding),
    rerank: round3(meters.reranks * pricing.rerank),
    plugin: round3(meters.pluginCalls * pricing.plugin),
    pluginRerank: round3(meters.pluginReranks * pricing.pluginRerank),
    crawler: round3(meters.crawledPages * pricing.crawlerPage),
  };
}

/** A flat-priced operation: the whole price in one bucket (`orchestration`, the request handling itself). */
export function flatCredits(amount: number): Credits {
  return { ...zeroCredits(), orchestration: amount };
}
