/**
 * Passage vectors (DESIGN.md section 11): one vector per passage (a chunk of a document) and embedding model, stored
 * beside the passage and deleted with it, so replacing a document (which chunks it again) leaves its new passages
 * without vectors until the embedding job computes them.
 */

/** A passage: the `position`-th chunk of a document. */
export interface PassageKey {
  knowledgeBaseId: string;
  documentId: string;
  position: number;
}

/** A passage claimed for embedding: what to embed and whose account pays for it. */
export interface PassageToEmbed extends PassageKey {
  accountId: string;
  title: string;
  content: string;
}

export interface PassageVector extends PassageKey {
  vector: Float32Array;
}

/** A passage as retrieval shows it, read by key (one that only vector search found). */
export interface StoredPassage extends PassageKey {
  title: string;
  url: string | null;
  content: string;
}

export interface EmbeddingClaim {
  /** The provider's model (`EmbeddingProvider.model`): passages lacking a vector of this model are claimed. */
  model: string;
  /** Who holds the lease: only its holder may save the vectors. */
  owner: string;
  now: Date;
  /** The lease's length; a worker that crashed leaves passages that anyone may claim once it runs out. */
  leaseMs: number;
  limit: number;
}

export interface EmbeddingProgress {
  knowledgeBaseId: string;
  /** Passages in the knowledge base. */
  passages: number;
  /** Passages with a vector of the model. */
  embedded: number;
}

export interface VectorOps {
  /**
   * Leases to `owner` up to `limit` passages of existing knowledge bases that have no vector for `model` and no
   * unexpired lease, oldest document first (then by document id and position). Two callers never hold the same
   * passage at once.
   */
  claimPassagesToEmbed(claim: EmbeddingClaim): Promise<PassageToEmbed[]>;
  /**
   * Stores the vectors of passages `owner` still holds for `model` and releases those leases; returns the keys
   * stored. A passage deleted or replaced since it was claimed lost its lease with it, so its stale vector is dropped.
   */
  savePassageVectors(save: { model: string; owner: string; vectors: PassageVector[] }): Promise<PassageKey[]>;
  /** Releases `owner`'s leases for `model` without storing anything (the provider failed): others may retry. */
  releasePassageClaims(claim: { model: string; owner: string }): Promise<void>;
  /** Deletes every vector not of `model` (the configured model changed); returns how many. */
  removeOtherModelVectors(model: string): Promise<number>;
  /** Per knowledge base asked for, in the order asked: its passages and how many have a vector of `model`. */
  embeddingProgress(query: { knowledgeBaseIds: string[]; model: string }): Promise<EmbeddingProgress[]>;
  /**
   * A number per knowledge base asked for that changes whenever its set of vectors changes (saved, deleted with a
   * passage, removed): an in-process index reloads a knowledge base only when it moved. 0 for one never changed.
   */
  vectorVersions(knowledgeBaseIds: string[]): Promise<Record<string, number>>;
  /** One page of a knowledge base's vectors of `model`, by (document id, position); `after` is the keyset position. */
  listPassageVectors(query: { knowledgeBaseId: string; model: string; after?: { documentId: string; position: number }; limit: number }): Promise<PassageVector[]>;
  /** The passages that exist among `keys`, in the order given. */
  getPassages(keys: PassageKey[]): Promise<StoredPassage[]>;
}
