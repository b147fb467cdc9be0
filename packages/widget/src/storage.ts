/**
 * What the widget keeps in `localStorage`: the visitorId and, per public key, the current sessionId, so a reload
 * resumes the conversation, and the messages the service has not accepted yet (the outbox). Never the identity token (memory only, spec 4.9).
 *
 * Every access is guarded: storage throws in some private modes, sandboxed iframes and when the quota is full.
 * The widget then keeps working for the life of the page with an in-memory copy.
 */
export const STORAGE_PREFIX = 'svc-widget:';
const VISITOR_KEY = `${STORAGE_PREFIX}visitor`;
/**
 * Values storage refused (or that wait for consent), and removals waiting for consent (null). Read first, so the
 * page sees its latest state; empty in the common case, so clearing storage leaves nothing stale here.
 */
const memory = new Map<string, string | null>();
/** While the visitor has not consented (`data-consent="required"`), nothing reaches storage. */
let held = false;

function read(key: string): string | null {
  if (memory.has(key)) return memory.get(key)!;
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  memory.delete(key);
  if (held) {
    memory.set(key, value);
    return;
  }
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    if (value !== null) memory.set(key, value);
  }
}

/** Holds writes in memory (no consent yet), or releases them: what waited is written now. */
export function holdWrites(hold: boolean): void {
  held = hold;
  if (!hold) for (const [key, value] of [...memory]) write(key, value);
}

const sessionKey = (apiKey: string): string => `${STORAGE_PREFIX}session:${apiKey}`;

export const loadVisitorId = (): string | null => read(VISITOR_KEY);

export const saveVisitorId = (visitorId: string): void => write(VISITOR_KEY, visitorId);

/** The stored session belongs to one visitor: a session of another visitorId is never resumed. */
export function loadSession(apiKey: string, visitorId: string): string | null {
  const [owner, sessionId] = (read(sessionKey(apiKey)) ?? '').split(' ');
  return owner === visitorId && sessionId ? sessionId : null;
}

export function saveSession(apiKey: string, session: { sessionId: string; visitorId: string } | null): void {
  // visitorId and sessionId cannot contain spaces (spec 2.1), so a space separates them.
  write(sessionKey(apiKey), session && `${session.visitorId} ${session.sessionId}`);
}

/** A visitor message not yet accepted by the service, kept until it is (DESIGN.md 7: nothing typed is lost). */
export interface PendingMessage {
  content: string;
  /** Reused by every attempt, across reloads: the service runs the turn once whatever the number of tries. */
  idempotencyKey: string;
}

const outboxKey = (apiKey: string): string => `${STORAGE_PREFIX}outbox:${apiKey}`;

/** The outbox of one visitor, oldest first; another visitor's (or an unreadable one) is ignored. */
export function loadOutbox(apiKey: string, visitorId: string): PendingMessage[] {
  try {
    const stored = JSON.parse(read(outboxKey(apiKey)) ?? 'null') as { visitorId?: unknown; items?: unknown } | null;
    if (stored?.visitorId !== visitorId || !Array.isArray(stored.items)) return [];
    return stored.items.filter(
      (item: Partial<PendingMessage>): item is PendingMessage => typeof item?.content === 'string' && typeof item.idempotencyKey === 'string',
    );
  } catch {
    return [];
  }
}

/** Whether any visitor left messages unsent with this key (the loader then loads the panel at once). */
export const hasOutbox = (apiKey: string): boolean => read(outboxKey(apiKey)) !== null;

export function saveOutbox(apiKey: string, visitorId: string, items: PendingMessage[]): void {
  write(outboxKey(apiKey), items.length ? JSON.stringify({ visitorId, items }) : null);
}

/** `reset()` and automatic sign-out: removes every key the widget ever wrote, whatever the public key. */
export function clearStorage(): void {
  memory.clear();
  try {
    // Backwards, so removing a key does not shift the ones still to visit.
    for (let i = localStorage.length; i--; ) {
      const key = localStorage.key(i);
      if (key?.startsWith(STORAGE_PREFIX)) localStorage.removeItem(key);
    }
  } catch {
    // Nothing more can be done when storage refuses access.
  }
}
