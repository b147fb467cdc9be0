import { afterEach, beforeEach, describe } from 'vitest';
import type { Store } from '../store/store.js';
import { accountContract } from './contract/accounts.js';
import { analyticsContract } from './contract/analytics.js';
import { evalsContract } from './contract/evals.js';
import { deliveryContract } from './contract/deliveries.js';
import { guardContract } from './contract/guards.js';
import { identityContract } from './contract/identity.js';
import { knowledgeContract } from './contract/knowledge.js';
import { messageContract } from './contract/messages.js';
import { operatorContract } from './contract/operators.js';
import { recordContract } from './contract/records.js';
import { searchContract } from './contract/search.js';
import { sessionContract } from './contract/sessions.js';
import { sourceContract } from './contract/sources.js';
import { sessionEventContract } from './contract/session-events.js';
import { transactionContract } from './contract/transactions.js';
import { turnJobContract } from './contract/turn-jobs.js';
import { turnPipelineContract } from './contract/turn-pipeline.js';
import { turnAcceptContract } from './contract/turn-accept.js';
import { vectorContract } from './contract/vectors.js';
import { webhookContract } from './contract/webhooks.js';
import { questionContract } from './contract/questions.js';
import { widgetAndKeyContract } from './contract/widgets-and-keys.js';

export interface StoreUnderTest {
  store: Store;
  /** Closes the store and removes whatever the factory created (a temp schema, a directory…). */
  cleanup: () => Promise<void>;
}

/** Called before every test: each test gets an empty store of its own. */
export type StoreFactory = () => Promise<StoreUnderTest>;

/**
 * The one behavioural specification of the {@link Store} port. Every implementation runs it: the memory store,
 * PGlite and PostgreSQL. A behaviour the engine relies on belongs here, not in one implementation's tests.
 *
 * @example
 * // memory-store.test.ts
 * describeStoreContract('memory', async () => ({ store: createMemoryStore(), cleanup: async () => {} }));
 */
export function describeStoreContract(name: string, factory: StoreFactory): void {
  describe(`Store contract: ${name}`, () => {
    let current: StoreUnderTest | undefined;
    const store = (): Store => {
      if (!current) throw new Error('The store factory has not run');
      return current.store;
    };

    beforeEach(async () => {
      current = await factory();
    });
    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });

    describe('accounts and ledger', () => accountContract(store));
    describe('operator analytics', () => analyticsContract(store));
    describe('eval suites and runs', () => evalsContract(store));
    describe('widgets and API keys', () => widgetAndKeyContract(store));
    describe('knowledge bases, products and documents', () => knowledgeContract(store));
    describe('knowledge sources and their pages', () => sourceContract(store));
    describe('knowledge search', () => searchContract(store));
    describe('passage vectors and embedding claims', () => vectorContract(store));
    describe('sessions', () => sessionContract(store));
    describe('messages', () => messageContract(store));
    describe('handoff and the session event log', () => sessionEventContract(store));
    describe('visitors, idempotency records and settings', () => recordContract(store));
    describe('transactions', () => transactionContract(store));
    describe('turn jobs', () => turnJobContract(store));
    describe('turn pipeline: session row locks, per-session claims, events', () => turnPipelineContract(store));
    describe('turn pipeline: the acceptance as one guarded write', () => turnAcceptContract(store));
    describe('callback deliveries', () => deliveryContract(store));
    describe('identity secrets and bound sessions', () => identityContract(store));
    describe('rate counters and origin lookup', () => guardContract(store));
    describe('lifecycle webhooks and the expiry sweep', () => webhookContract(store));
    describe('operators, console sessions and sign-in failures', () => operatorContract(store));
    describe('message feedback and question groups', () => questionContract(store));
  });
}
