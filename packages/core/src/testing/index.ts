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
  makeTurnJob,
  makeWebhook,
  makeWidget,
} from './fixtures.js';
export { agentReply, createEngineHarness, echoAgent } from './engine-harness.js';
export type { EngineHarness } from './engine-harness.js';
export { craftToken, KNOWN_ANSWER } from './identity-vectors.js';
export { CALLBACK_SIGNATURE_VECTORS } from '../signing.vectors.js';
