export { describeStoreContract } from './store-contract.js';
export type { StoreFactory, StoreUnderTest } from './store-contract.js';
export {
  FIXTURE_TIME,
  at,
  fixtureId,
  makeAccount,
  makeApiKey,
  makeConsoleSession,
  makeDelivery,
  makeDocument,
  makeIdempotencyRecord,
  makeKnowledgeBase,
  makeLedgerEntry,
  makeMessage,
  makeOperator,
  makeProduct,
  makeSession,
  makeSource,
  makeSourcePage,
  makeTurnJob,
  makeWebhook,
  makeWidget,
} from './fixtures.js';
export { agentReply, createEngineHarness, echoAgent } from './engine-harness.js';
export type { EngineHarness } from './engine-harness.js';
export { craftToken, KNOWN_ANSWER } from './identity-vectors.js';
export { CALLBACK_SIGNATURE_VECTORS } from '../signing.vectors.js';
// What store and agent tests run against besides the contract suites: the reference store, a clock they move by
// hand, the id source, and the engine's expiry sweep (so two stores on one database can sweep side by side).
export { createMemoryStore } from '../store/memory-store.js';
export { manualClock } from '../clock.js';
export { defaultIds } from '../ids.js';
export { expireDueSessions } from '../engine/lifecycle.js';
