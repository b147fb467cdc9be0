import type { Session, StoredMessage, VisitorContext } from '../domain.js';
import { chunkDocument } from './chunking.js';
import { resolveByAgent } from '../session-machine.js';
import { createMemoryAnalyticsOps } from './memory-analytics-ops.js';
import { createMemoryEvalOps } from './memory-eval-ops.js';
import { bumpVectorVersion, createMemoryVectorOps } from './memory-vector-ops.js';
import { createMemoryCallbackOps } from './memory-turn-job-ops.js';
import { createMemoryGuardOps } from './memory-guard-ops.js';
import { createMemoryOperatorOps } from './memory-operator-ops.js';
import { createMemoryWebhookOps } from './memory-webhook-ops.js';
import { createMemorySessionEventOps } from './memory-session-event-ops.js';
import { createMemorySourceOps } from './memory-source-ops.js';
import { createMemoryQuestionOps } from './memory-question-ops.js';
import type { StoreSignal, TurnJob } from './turn-job-store.js';
import { searchMemoryKnowledge } from './memory-search.js';
import type { MemoryState } from './memory-state.js';
import { byCreation, compareIds, copy, copyOrNull, definedOnly, duplicate, key } from './memory-tables.js';
import type { SessionPatch, StoreOps } from './store.js';

/**
 * The Store operations over in-memory tables. Each body runs synchronously, so each operation is atomic on its own;
 * isolation from open transactions is the caller's job (see memory-store.ts).
 */
export function createMemoryOps(state: MemoryState, publish: (event: StoreSignal) => void): StoreOps {
  return {
    ...createMemoryCallbackOps(state),
    ...createMemoryGuardOps(state),
    ...createMemoryWebhookOps(state),
    ...createMemoryOperatorOps(state),
    ...createMemorySessionEventOps(state, publish),
    ...createMemoryAnalyticsOps(state),
    ...createMemoryEvalOps(state),
    ...createMemoryVectorOps(state),
    ...createMemorySourceOps(state),
    ...createMemoryQuestionOps(state),
    async publishSignal(event) {
      publish(event);
    },
    async acceptTurnJob({ job, userMessage, session }) {
      const sessionKey = key(job.widgetId, job.sessionId);
      const current = state.sessions.get(sessionKey);
      // Every check before the first write: outside a transaction there is nothing to roll back.
      if (state.turnJobs.has(job.id)) throw duplicate('turn job', job.id);
      if (!current) throw new Error(`Session ${job.sessionId} of widget ${job.widgetId} does not exist`);
      const messages = state.sessionMessages.get(sessionKey) ?? [];
      if (userMessage) {
        if (state.messageIds.has(userMessage.id)) throw duplicate('message', userMessage.id);
        if (messages.some((m) => m.seq === userMessage.seq)) throw new Error(`Message seq ${userMessage.seq} already exists in session ${job.sessionId}`);
      }
      state.turnJobSeq.last++;
      state.turnJobs.set(job.id, { job: copy(job), seq: state.turnJobSeq.last });
      if (userMessage) {
        state.sessionMessages.set(sessionKey, [...messages, copy(userMessage)].sort((a, b) => a.seq - b.seq));
        state.messageIds.set(userMessage.id, sessionKey);
      }
      state.sessions.set(sessionKey, { ...current, ...copy(session) });
    },
    async acceptTurnAtOnce({ job, userMessage, guard, activity, idempotency, visitorContext, historyLimit }) {
      const sessionKey = key(job.widgetId, job.sessionId);
      const session = state.sessions.get(sessionKey);
      const account = state.accounts.get(guard.accountId);
      const admitted =
        session !== undefined &&
        session.accountId === guard.accountId &&
        (!guard.publicCaller || (session.creatorKeyKind === 'public' && (session.identitySub === null || session.identitySub === guard.identitySub))) &&
        session.status === 'active' &&
        session.expiresAt.getTime() > guard.now.getTime() &&
        account !== undefined &&
        account.status !== 'overdue' &&
        account.balance > 0 &&
        (idempotency === null || !state.idempotency.has(key(idempotency.scope, idempotency.key)));
      if (!admitted) return null;
      if (state.turnJobs.has(job.id)) throw duplicate('turn job', job.id);
      if (state.messageIds.has(userMessage.id)) throw duplicate('message', userMessage.id);
      const claimed = ![...state.turnJobs.values()].some(
        ({ job: other }) => other.widgetId === job.widgetId && other.sessionId === job.sessionId && (other.status === 'queued' || other.status === 'running'),
      );
      const stored: TurnJob = claimed ? job : { ...job, status: 'queued', attempts: 0, leaseOwner: null, leaseExpiresAt: null };
      const messages = state.sessionMessages.get(sessionKey) ?? [];
      const history = messages.slice(-historyLimit).map((m) => copy(m));
      const message: StoredMessage | null = claimed ? { ...copy(userMessage), seq: session.messageCount + 1 } : null;
      state.turnJobSeq.last++;
      state.turnJobs.set(job.id, { job: copy(stored), seq: state.turnJobSeq.last });
      if (message) {
        state.sessionMessages.set(sessionKey, [...messages, copy(message)]);
        state.messageIds.set(message.id, sessionKey);
      }
      const after: Session = { ...session, ...copy(activity), messageCount: message?.seq ?? session.messageCount };
      state.sessions.set(sessionKey, after);
      if (idempotency) state.idempotency.set(key(idempotency.scope, idempotency.key), copy(idempotency));
      const visitorKey = key(session.accountId, session.visitorId);
      const previous = state.visitors.get(visitorKey)?.context ?? {};
      if (visitorContext) {
        const context = { ...previous, ...copy(definedOnly<VisitorContext>(visitorContext)) };
        state.visitors.set(visitorKey, { accountId: session.accountId, visitorId: session.visitorId, context, updatedAt: new Date(activity.lastActivityAt) });
      }
      return {
        claimed,
        job: copy(stored),
        session: copy(after),
        userMessage: message,
        history,
        visitorContext: copy(state.visitors.get(visitorKey)?.context ?? {}),
      };
    },
    async commitTurn(commit) {
      const row = state.turnJobs.get(commit.jobId);
      if (!row || row.job.status !== 'running' || row.job.leaseOwner !== commit.owner) return null;
      const { job } = row;
      const sessionKey = key(job.widgetId, job.sessionId);
      const session = state.sessions.get(sessionKey);
      if (!session) return null;
      // Every check before the first write: outside a transaction there is nothing to roll back.
      if (state.messageIds.has(commit.reply.id)) throw duplicate('message', commit.reply.id);
      if (commit.charge && state.ledger.has(commit.charge.id)) throw duplicate('ledger entry', commit.charge.id);
      for (const delivery of commit.deliveries) if (state.deliveries.has(delivery.id)) throw duplicate('delivery', delivery.id);

      const reply: StoredMessage = copy({ ...commit.reply, seq: session.messageCount + 1 });
      const messages = state.sessionMessages.get(sessionKey) ?? [];
      if (messages.some((existing) => existing.seq === reply.seq)) {
        throw new Error(`Message seq ${reply.seq} already exists in session ${job.sessionId}`);
      }
      state.turnJobs.set(job.id, {
        ...row,
        job: { ...job, status: 'done', error: null, finishedAt: new Date(commit.at), leaseOwner: null, leaseExpiresAt: null, identity: null },
      });
      state.sessionMessages.set(sessionKey, [...messages, reply]);
      state.messageIds.set(reply.id, sessionKey);
      const answered: Session = { ...session, messageCount: reply.seq, pendingFormId: commit.session.pendingFormId };
      state.sessions.set(sessionKey, commit.session.concludedAt ? resolveByAgent(answered, new Date(commit.session.concludedAt)) : answered);
      const account = commit.charge ? state.accounts.get(commit.charge.accountId) : undefined;
      if (commit.charge && account) {
        state.accounts.set(account.id, { ...account, balance: account.balance - commit.charge.total });
        state.ledger.set(commit.charge.id, copy(commit.charge));
      }
      for (const delivery of commit.deliveries) state.deliveries.set(delivery.id, copy(delivery));
      publish({ type: 'finished', jobId: job.id, widgetId: job.widgetId, sessionId: job.sessionId });
      return copy(reply);
    },

    async insertAccount(account) {
      if (state.accounts.has(account.id)) throw duplicate('account', account.id);
      state.accounts.set(account.id, copy(account));
    },
    async getAccount(id) {
      return copyOrNull(state.accounts.get(id));
    },
    async setAccountBalance(id, balance) {
      const account = state.accounts.get(id);
      if (!account) return false;
      state.accounts.set(id, { ...account, balance });
      return true;
    },
    async setAccountStatus(id, status) {
      const account = state.accounts.get(id);
      if (!account) return false;
      state.accounts.set(id, { ...account, status });
      return true;
    },
    async debitAccount(id, amount) {
      const account = state.accounts.get(id);
      if (!account) return null;
      const balance = account.balance - amount;
      state.accounts.set(id, { ...account, balance });
      return balance;
    },
    async insertLedgerEntry(entry) {
      if (state.ledger.has(entry.id)) throw duplicate('ledger entry', entry.id);
      state.ledger.set(entry.id, copy(entry));
    },
    async chargeAccount(entry) {
      const account = state.accounts.get(entry.accountId);
      if (!account) return null;
      if (state.ledger.has(entry.id)) throw duplicate('ledger entry', entry.id);
      const balance = account.balance - entry.total;
      state.accounts.set(entry.accountId, { ...account, balance });
      state.ledger.set(entry.id, copy(entry));
      return balance;
    },
    async listLedgerEntries(accountId, limit) {
      const entries = [...state.ledger.values()].filter((entry) => entry.accountId === accountId);
      return entries.sort((a, b) => -byCreation(a, b)).slice(0, limit).map(copy);
    },

    async insertWidget(widget) {
      if (state.widgets.has(widget.id)) throw duplicate('widget', widget.id);
      state.widgets.set(widget.id, copy(widget));
    },
    async getWidget(id) {
      return copyOrNull(state.widgets.get(id));
    },
    async updateWidget(id, patch) {
      const widget = state.widgets.get(id);
      if (!widget) return false;
      state.widgets.set(id, { ...widget, ...copy(definedOnly(patch)) });
      return true;
    },
    async listWidgets(accountId) {
      return [...state.widgets.values()].filter((widget) => widget.accountId === accountId).sort(byCreation).map(copy);
    },

    async insertApiKey(apiKey) {
      if (state.apiKeys.has(apiKey.id)) throw duplicate('API key', apiKey.id);
      if (findKeyByHash(state, apiKey.hash)) throw new Error(`An API key with hash ${apiKey.hash} already exists`);
      state.apiKeys.set(apiKey.id, copy(apiKey));
    },
    async getApiKey(id) {
      return copyOrNull(state.apiKeys.get(id));
    },
    async setApiKeyCallbackSecret(id, secret) {
      const apiKey = state.apiKeys.get(id);
      if (!apiKey) return false;
      state.apiKeys.set(id, { ...apiKey, callbackSecret: secret });
      return true;
    },
    async findApiKeyByHash(hash) {
      return copyOrNull(findKeyByHash(state, hash));
    },
    async listApiKeys(accountId) {
      const keys = [...state.apiKeys.values()].filter((apiKey) => accountId === undefined || apiKey.accountId === accountId);
      return keys.sort(byCreation).map(copy);
    },
    async revokeApiKey(id, at) {
      const apiKey = state.apiKeys.get(id);
      if (!apiKey || apiKey.revokedAt !== null) return false;
      state.apiKeys.set(id, { ...apiKey, revokedAt: new Date(at) });
      return true;
    },

    async insertKnowledgeBase(kb) {
      if (state.knowledgeBases.has(kb.id)) throw duplicate('knowledge base', kb.id);
      state.knowledgeBases.set(kb.id, copy(kb));
    },
    async getKnowledgeBase(id) {
      return copyOrNull(state.knowledgeBases.get(id));
    },
    async listKnowledgeBases(accountId) {
      return [...state.knowledgeBases.values()].filter((kb) => kb.accountId === accountId).sort(byCreation).map(copy);
    },
    async upsertProducts(knowledgeBaseId, products, sourceId) {
      for (const product of products) {
        state.products.set(key(knowledgeBaseId, product.id), { knowledgeBaseId, product: copy(product), sourceId: sourceId ?? null });
      }
    },
    async deleteProduct(knowledgeBaseId, productId) {
      return state.products.delete(key(knowledgeBaseId, productId));
    },
    async listProducts({ knowledgeBaseId, afterId, limit }) {
      const products = [...state.products.values()]
        .filter((row) => row.knowledgeBaseId === knowledgeBaseId && (afterId === undefined || row.product.id > afterId))
        .map((row) => row.product);
      return products.sort((a, b) => compareIds(a.id, b.id)).slice(0, limit).map(copy);
    },
    async countProducts(knowledgeBaseId) {
      let count = 0;
      for (const row of state.products.values()) if (row.knowledgeBaseId === knowledgeBaseId) count++;
      return count;
    },
    async insertDocument(document) {
      const documentKey = key(document.knowledgeBaseId, document.id);
      if (state.documents.has(documentKey)) throw duplicate('document', document.id);
      state.documents.set(documentKey, { document: copy(document), chunks: chunkDocument(document.content) });
    },
    async getDocument(knowledgeBaseId, documentId) {
      return copyOrNull(state.documents.get(key(knowledgeBaseId, documentId))?.document);
    },
    async deleteDocument(knowledgeBaseId, documentId) {
      const deleted = state.documents.delete(key(knowledgeBaseId, documentId));
      // Its passages' vectors went with it.
      if (deleted) bumpVectorVersion(state, knowledgeBaseId);
      return deleted;
    },
    async deleteDocuments(knowledgeBaseId, documentIds) {
      let deleted = 0;
      for (const documentId of new Set(documentIds)) if (state.documents.delete(key(knowledgeBaseId, documentId))) deleted++;
      if (deleted > 0) bumpVectorVersion(state, knowledgeBaseId);
      return deleted;
    },
    async listDocuments(knowledgeBaseId) {
      const documents = [...state.documents.values()].map((row) => row.document);
      return documents.filter((document) => document.knowledgeBaseId === knowledgeBaseId).sort(byCreation).map(copy);
    },
    async searchKnowledge(query) {
      return copy(searchMemoryKnowledge(state, query));
    },

    async insertSession(session) {
      const sessionKey = key(session.widgetId, session.id);
      if (state.sessions.has(sessionKey)) return { inserted: false };
      state.sessions.set(sessionKey, copy(session));
      return { inserted: true };
    },
    async getSession(widgetId, sessionId) {
      return copyOrNull(state.sessions.get(key(widgetId, sessionId)));
    },
    async lockSession(widgetId, sessionId) {
      return copyOrNull(state.sessions.get(key(widgetId, sessionId)));
    },
    async lockSessionForTurn(widgetId, sessionId, accountId) {
      const session = state.sessions.get(key(widgetId, sessionId));
      if (!session) return null;
      return { session: copy(session), account: copyOrNull(state.accounts.get(accountId)) };
    },
    async updateSession(widgetId, sessionId, patch) {
      const sessionKey = key(widgetId, sessionId);
      const session = state.sessions.get(sessionKey);
      if (!session) return null;
      const updated: Session = { ...session, ...copy(definedOnly<SessionPatch>(patch)) };
      state.sessions.set(sessionKey, updated);
      return copy(updated);
    },
    async expireSessions(now) {
      let expired = 0;
      for (const session of [...state.sessions.values()]) {
        if (session.status !== 'active' || session.expiresAt.getTime() > now.getTime()) continue;
        state.sessions.set(key(session.widgetId, session.id), { ...session, status: 'expired' });
        expired++;
      }
      return expired;
    },

    async insertMessage(message) {
      const sessionKey = key(message.widgetId, message.sessionId);
      const messages = state.sessionMessages.get(sessionKey) ?? [];
      if (state.messageIds.has(message.id)) throw duplicate('message', message.id);
      if (messages.some((existing) => existing.seq === message.seq)) {
        throw new Error(`Message seq ${message.seq} already exists in session ${message.sessionId}`);
      }
      const next = [...messages, copy(message)].sort((a, b) => a.seq - b.seq);
      state.sessionMessages.set(sessionKey, next);
      state.messageIds.set(message.id, sessionKey);
    },
    async getMessage(widgetId, sessionId, messageId) {
      const messages = state.sessionMessages.get(key(widgetId, sessionId)) ?? [];
      return copyOrNull(messages.find((message) => message.id === messageId));
    },
    async listMessages({ widgetId, sessionId, afterSeq, limit }) {
      const messages = state.sessionMessages.get(key(widgetId, sessionId)) ?? [];
      return messages.filter((message) => afterSeq === undefined || message.seq > afterSeq).slice(0, limit).map(copy);
    },
    async recentMessages({ widgetId, sessionId, limit }) {
      const messages: StoredMessage[] = state.sessionMessages.get(key(widgetId, sessionId)) ?? [];
      return limit > 0 ? messages.slice(-limit).map(copy) : [];
    },
    async setMessageFeedback({ widgetId, sessionId, messageId, feedback }) {
      const sessionKey = key(widgetId, sessionId);
      const messages = state.sessionMessages.get(sessionKey) ?? [];
      const found = messages.find((message) => message.id === messageId);
      if (!found) return null;
      const updated: StoredMessage = { ...found, feedback: copy(feedback) };
      state.sessionMessages.set(sessionKey, messages.map((message) => (message === found ? updated : message)));
      return copy(updated);
    },

    async upsertVisitor(accountId, visitorId, context, at) {
      const visitorKey = key(accountId, visitorId);
      const previous = state.visitors.get(visitorKey)?.context ?? {};
      const visitor = {
        accountId,
        visitorId,
        context: { ...previous, ...copy(definedOnly<VisitorContext>(context)) },
        updatedAt: new Date(at),
      };
      state.visitors.set(visitorKey, visitor);
      return copy(visitor);
    },
    async getVisitor(accountId, visitorId) {
      return copyOrNull(state.visitors.get(key(accountId, visitorId)));
    },

    async getIdempotencyRecord(scope, idempotencyKey) {
      return copyOrNull(state.idempotency.get(key(scope, idempotencyKey)));
    },
    async putIdempotencyRecord(record) {
      const recordKey = key(record.scope, record.key);
      if (state.idempotency.has(recordKey)) return false;
      state.idempotency.set(recordKey, copy(record));
      return true;
    },
    async settleIdempotencyRecord(scope, idempotencyKey, requestHash, response) {
      const recordKey = key(scope, idempotencyKey);
      const record = state.idempotency.get(recordKey);
      if (!record || record.status !== 0 || record.requestHash !== requestHash) return false;
      if (response === null) state.idempotency.delete(recordKey);
      else state.idempotency.set(recordKey, { ...record, status: response.status, body: response.body });
      return true;
    },
    async deleteIdempotencyRecordsBefore(before) {
      let deleted = 0;
      for (const record of [...state.idempotency.values()]) {
        if (record.createdAt.getTime() < before.getTime() && state.idempotency.delete(key(record.scope, record.key))) deleted++;
      }
      return deleted;
    },

    async getOrCreateSetting(name, create) {
      const existing = state.settings.get(name);
      if (existing !== undefined) return existing;
      const value = create();
      state.settings.set(name, value);
      return value;
    },
  };
}

function findKeyByHash(state: MemoryState, hash: string) {
  for (const apiKey of state.apiKeys.values()) if (apiKey.hash === hash) return apiKey;
  return undefined;
}
