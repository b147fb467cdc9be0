import type { KnowledgeSource, SourcePage, SourcePageState } from '../domain.js';

/**
 * Knowledge sources and the pages of website sources (DESIGN.md section 11 "Sources"). A source's documents carry
 * its id; its pages are kept per canonical URL, so a re-sync replays their validators and a crashed sync resumes from
 * the pages still `pending`.
 */

/** What the sync job may change on a source. */
export type SourcePatch = Partial<Pick<KnowledgeSource, 'status' | 'progress' | 'lastSync' | 'nextSyncAt' | 'generation' | 'lease' | 'schedule'>>;

export interface SourceClaim {
  /** Who takes the lease. */
  owner: string;
  now: Date;
  leaseMs: number;
}

export interface SourcePageQuery {
  sourceId: string;
  state?: SourcePageState;
  /** Pages last reached by this sync. */
  generation?: number;
  /** Pages last reached by a sync before this one. */
  beforeGeneration?: number;
  contentHash?: string;
  /** Ordered by URL (code-point order). */
  limit: number;
}

export interface SourceOps {
  /** Rejects an id that exists, and a second `manual` source for a knowledge base. */
  insertSource(source: KnowledgeSource): Promise<void>;
  /** The knowledge base's manual source; `candidate` is inserted when it has none yet. Race-safe: one per knowledge base. */
  ensureManualSource(candidate: KnowledgeSource): Promise<KnowledgeSource>;
  getSource(knowledgeBaseId: string, sourceId: string): Promise<KnowledgeSource | null>;
  /** Oldest first, ties by id. */
  listSources(knowledgeBaseId: string): Promise<KnowledgeSource[]>;
  /**
   * Applies `patch` and returns the source as it is now, or null when it does not exist or, with `owner`, when that
   * owner no longer holds its lease (another worker took the source over, or it was deleted).
   */
  updateSource(update: { id: string; owner?: string; patch: SourcePatch }): Promise<KnowledgeSource | null>;
  /** Removes the source with its pages, its documents (their passages and vectors) and its products. */
  deleteSource(knowledgeBaseId: string, sourceId: string): Promise<boolean>;
  /**
   * Leases to `owner` one website source to sync: one it holds already, one queued, one whose lease ran out (a
   * crashed worker's: resumed, not restarted), or a `ready`/`failed` one whose `nextSyncAt` is due; queued and
   * held ones first, then by `nextSyncAt`. Two callers never hold one source at once. The status is left as it was.
   */
  claimSource(claim: SourceClaim): Promise<KnowledgeSource | null>;
  /** How many documents each source of the knowledge base holds (sources without any left out). */
  countSourceDocuments(knowledgeBaseId: string): Promise<Record<string, number>>;

  /**
   * Puts URLs on a sync's frontier, in the order given, while the source has fewer than `max` pages of
   * `generation`: a new URL becomes a `pending` page; a page of an earlier sync becomes `pending` for this one
   * (keeping its validators, hash, documents and links); a page this sync reached already is left alone.
   * Returns the URLs added.
   */
  addSourcePages(input: { sourceId: string; urls: string[]; generation: number; max: number; now: Date }): Promise<string[]>;
  getSourcePage(sourceId: string, url: string): Promise<SourcePage | null>;
  /** Inserts or replaces the page of (sourceId, url). */
  putSourcePage(page: SourcePage): Promise<void>;
  deleteSourcePage(sourceId: string, url: string): Promise<boolean>;
  listSourcePages(query: SourcePageQuery): Promise<SourcePage[]>;
}
