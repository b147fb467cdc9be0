/**
 * `@svc/core/store-kit`: building blocks for implementations of the Store port, shared so that every store chunks
 * documents and orders lock waiters the same way. Engine users do not need it.
 */
export { chunkDocument, DEFAULT_CHUNK_CHARS } from './chunking.js';
export type { ChunkOptions, DocumentChunk } from './chunking.js';
export { createKeyedMutex } from './keyed-mutex.js';
export type { KeyedMutex } from './keyed-mutex.js';
export { createSignalBus } from './store-signals.js';
export type { SignalBus } from './store-signals.js';
