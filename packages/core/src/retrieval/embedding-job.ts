import type { EngineContext } from '../context.js';
import { zeroCredits } from '../credits.js';
import { charge } from '../engine/billing.js';
import type { PassageToEmbed } from '../store/vector-store.js';
import type { EmbeddingProvider } from './providers.js';

/**
 * The embedding job of DESIGN.md section 11: passages without a vector of the configured model get one, in the
 * background (never inside a turn). A round claims a batch under a lease (two processes never embed one passage at
 * once), embeds it in one provider call, saves what is still current and charges each account's `embedding` bucket
 * per passage saved, in one transaction. A provider failure releases the batch and backs off; it never throws.
 */

export interface EmbeddingRound {
  /** Passages embedded and saved by this round. */
  embedded: number;
  /** True when the round found work: call again at once. */
  busy: boolean;
  /** Set when the provider failed: the round did nothing, and the next should wait `retryInMs`. */
  failure?: { error: unknown; retryInMs: number };
}

export interface EmbeddingWork {
  /** One round; resolves `{ embedded: 0, busy: false }` at once when no embedding provider is configured. */
  embedPassages(options?: { signal?: AbortSignal }): Promise<EmbeddingRound>;
}

export interface EmbeddingJobOptions {
  /** This process's name on its leases. */
  owner: string;
  /** A claimed passage is another's to take after this long (a crashed worker). Default 5 minutes. */
  leaseMs?: number;
  /** Passages per round, at most the provider's `maxBatch`. Default 64. */
  batch?: number;
  /** Back-off after consecutive provider failures: doubles from `minRetryMs` up to `maxRetryMs`. Defaults 1 s, 5 min. */
  minRetryMs?: number;
  maxRetryMs?: number;
}

type JobContext = Pick<EngineContext, 'store' | 'clock' | 'ids' | 'pricing'>;

export function createEmbeddingWork(ctx: JobContext, embeddings: EmbeddingProvider | undefined, options: EmbeddingJobOptions): EmbeddingWork {
  if (embeddings === undefined) return { embedPassages: async () => ({ embedded: 0, busy: false }) };
  const provider = embeddings;
  const leaseMs = options.leaseMs ?? 300_000;
  const batch = Math.max(1, Math.min(options.batch ?? 64, provider.maxBatch));
  const minRetryMs = options.minRetryMs ?? 1_000;
  const maxRetryMs = options.maxRetryMs ?? 300_000;
  let failures = 0;
  let staleRemoved = false;

  async function embedPassages(run: { signal?: AbortSignal } = {}): Promise<EmbeddingRound> {
    if (!staleRemoved) {
      // The model changed (or this is the first run): vectors of another model can never be compared with this one's.
      await ctx.store.removeOtherModelVectors(provider.model);
      staleRemoved = true;
    }
    const claimed = await ctx.store.claimPassagesToEmbed({ model: provider.model, owner: options.owner, now: ctx.clock.now(), leaseMs, limit: batch });
    if (claimed.length === 0) return { embedded: 0, busy: false };
    let vectors: Float32Array[];
    try {
      const texts = claimed.map((passage) => `${passage.title}\n\n${passage.content}`);
      ({ vectors } = await provider.embed(texts, { purpose: 'passage', ...(run.signal === undefined ? {} : { signal: run.signal }) }));
      if (vectors.length !== claimed.length) throw new Error(`${provider.model}: ${vectors.length} vectors for ${claimed.length} passages`);
    } catch (error) {
      await ctx.store.releasePassageClaims({ model: provider.model, owner: options.owner });
      failures += 1;
      return { embedded: 0, busy: false, failure: { error, retryInMs: Math.min(maxRetryMs, minRetryMs * 2 ** (failures - 1)) } };
    }
    failures = 0;
    const embedded = await save(claimed, vectors);
    return { embedded, busy: true };
  }

  async function save(claimed: PassageToEmbed[], vectors: Float32Array[]): Promise<number> {
    return ctx.store.transaction(async (tx) => {
      const saved = await tx.savePassageVectors({
        model: provider.model,
        owner: options.owner,
        vectors: claimed.map((passage, index) => ({ knowledgeBaseId: passage.knowledgeBaseId, documentId: passage.documentId, position: passage.position, vector: vectors[index]! })),
      });
      const accountOf = new Map(claimed.map((passage) => [passage.knowledgeBaseId, passage.accountId]));
      const perAccount = new Map<string, number>();
      for (const passage of saved) {
        const accountId = accountOf.get(passage.knowledgeBaseId)!;
        perAccount.set(accountId, (perAccount.get(accountId) ?? 0) + 1);
      }
      for (const [accountId, count] of perAccount) {
        const credits = { ...zeroCredits(), embedding: Math.round(count * ctx.pricing.embedding * 1000) / 1000 };
        await charge(ctx, tx, { accountId, operation: 'knowledge.embed', credits });
      }
      return saved.length;
    });
  }

  return { embedPassages };
}
