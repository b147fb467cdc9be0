import type { Session } from '../domain.js';
import type { MemoryState } from './memory-state.js';
import { byCreation, compareIds, copy, copyOrNull, duplicate, key } from './memory-tables.js';
import type { WebhookOps } from './webhook-store.js';

/** Webhook endpoints and the expiry sweep over in-memory tables (each body synchronous, hence atomic). */
export function createMemoryWebhookOps(state: MemoryState): WebhookOps {
  return {
    async insertWebhook(webhook) {
      if (state.webhooks.has(webhook.id)) throw duplicate('webhook', webhook.id);
      state.webhooks.set(webhook.id, copy(webhook));
    },
    async getWebhook(id) {
      return copyOrNull(state.webhooks.get(id));
    },
    async listWebhooks(accountId) {
      return [...state.webhooks.values()].filter((webhook) => webhook.accountId === accountId).sort(byCreation).map(copy);
    },
    async deleteWebhook(id) {
      return state.webhooks.delete(id);
    },
    async setWebhookSecrets(id, secrets) {
      const webhook = state.webhooks.get(id);
      if (!webhook) return null;
      const updated = { ...webhook, ...copy(secrets) };
      state.webhooks.set(id, updated);
      return copy(updated);
    },
    async expireDueSessions({ now, limit, session: only }) {
      const due = [...state.sessions.values()]
        .filter((session) => session.status === 'active' && session.expiresAt.getTime() <= now.getTime())
        .filter((session) => !only || (session.widgetId === only.widgetId && session.id === only.sessionId))
        .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime() || compareIds(a.widgetId, b.widgetId) || compareIds(a.id, b.id))
        .slice(0, Math.max(0, limit));
      return due.map((session) => {
        const expired: Session = { ...session, status: 'expired', pendingFormId: null };
        state.sessions.set(key(session.widgetId, session.id), expired);
        return copy(expired);
      });
    },
  };
}
