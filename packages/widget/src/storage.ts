/**
 * What the widget keeps in `localStorage`: the visitorId and, per public key, the current sessionId, so a reload
 * resumes the conversation. Never the identity token (memory only, spec 4.9).
 *
 * Every access is guarded: storage throws in some private modes, sandboxed iframes and when the quota is full.
 * The widget then keeps working for the life of the page with an in-memory copy.
 */
export const STORAGE_PREFIX = 'svc-widget:';
const VISITOR_KEY = `${STORAGE_PREFIX}visitor`;
const memory = new Map<string, string>();

function read(key: string): string | null {
  try {
    const value = localStorage.getItem(key);
    if (value !== null) return value;
  } catch {
    // Fall back to the in-memory copy.
  }
  return memory.get(key) ?? null;
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // The in-memory copy below is what this page uses.
  }
  if (value === null) memory.delete(key);
  else memory.set(key, value);
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
