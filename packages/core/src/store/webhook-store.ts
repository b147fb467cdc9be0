import type { Session } from '../domain.js';

/**
 * Lifecycle webhooks (DESIGN.md section 5): account-level endpoints told about session state changes (and, with
 * `message.feedback`, a visitor's thumbs on a reply: DESIGN.md section 12). Their events
 * travel as delivery rows (see `Delivery`), written in the transaction that changes the session, and are sent,
 * retried and replayed by the same worker as callbacks.
 */

/** Every lifecycle event. */
export const LIFECYCLE_EVENTS = ['session.created', 'session.resolved', 'session.expired', 'session.rated', 'session.handoff', 'message.feedback'] as const;
export type LifecycleEventName = (typeof LIFECYCLE_EVENTS)[number];

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  /** The events it receives; never empty (created with every event unless some were named). */
  events: LifecycleEventName[];
  /** Signs every delivery; kept (not hashed) because signing needs it, as a key's callback secret is. */
  secret: string;
  /** After a rotation: the replaced secret, which also signs until `previousSecretExpiresAt`. */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
}

export interface WebhookOps {
  insertWebhook(webhook: WebhookEndpoint): Promise<void>;
  getWebhook(id: string): Promise<WebhookEndpoint | null>;
  /** One account's endpoints, oldest first. */
  listWebhooks(accountId: string): Promise<WebhookEndpoint[]>;
  deleteWebhook(id: string): Promise<boolean>;
  /** Sets the secrets of a rotation; null when the endpoint does not exist. */
  setWebhookSecrets(
    id: string,
    secrets: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  ): Promise<WebhookEndpoint | null>;
  /**
   * Marks active sessions whose `expiresAt` is at or before `now` as expired (no pending form) and returns them as
   * stored, at most `limit`, earliest expiry first. Rows another transaction holds are skipped (SQL: `SKIP LOCKED`),
   * so several workers sweep side by side and a session being changed is left to the next sweep. With `session`,
   * only that session is considered (and waited for when locked). Each returned session changed here: callers emit
   * its `session.expired` event exactly once.
   */
  expireDueSessions(query: { now: Date; limit: number; session?: { widgetId: string; sessionId: string } }): Promise<Session[]>;
}
