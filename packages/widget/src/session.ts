import type { RequestOptions } from './api.js';
import type { CreatedSession, Envelope, HistoryItem, Page, SessionView, WidgetConfig } from './api-types.js';
import type { Call, Context } from './context.js';
import { fromHistory } from './messages.js';
import { toApiError } from './retry.js';
import { randomId } from './random-id.js';
import { clearStorage, loadSession, saveSession, saveVisitorId } from './storage.js';

/** History pages followed at most (100 items each). */
const MAX_PAGES = 50;

const enc = encodeURIComponent;

/** The visitor's IANA zone, sent so replies and form dates use the visitor's clock. */
export const timezone = (): { timezone?: string } => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone ? { timezone: zone } : {};
};

/** What session.ts adds to the context. */
export type SessionPart = Pick<Context, 'fetchConfig' | 'GET' | 'POST' | 'history' | 'remember' | 'ensure' | 'restore' | 'startOver' | 'newVisitor'>;

/**
 * The session: the widget's config, the requests under its conversations, the session id (created by the first
 * message, kept in storage, reloaded with its history after a page reload; what a stored one that cannot load
 * means, spec 4.6, 4.7), and starting over, as the same visitor or a new one.
 */
export function createSession(c: Context): SessionPart {
  const set = c.store.set;
  let configRequest: Promise<WidgetConfig> | null = null;
  let restored = false;

  const load = (): Promise<WidgetConfig> => c.api<Envelope<WidgetConfig>>('GET', '/widget/config').then((body) => body.data);
  const fetchConfig = (): Promise<WidgetConfig> =>
    (configRequest ??= (c.prefetchedConfig?.catch(load) ?? load()).then(
      (data) => {
        set({ config: data });
        return data;
      },
      (error: unknown) => {
        configRequest = null;
        c.prefetchedConfig = undefined;
        throw error;
      },
    ));

  const call =
    (method: 'GET' | 'POST'): Call =>
    async <T>(session: string | null, suffix: string, request?: RequestOptions): Promise<T> => {
      await c.tokens.ensureFresh();
      const { widgetId } = await fetchConfig();
      return c.api<T>(method, `/widgets/${enc(widgetId)}/conversations${session ? `/${enc(session)}` : ''}${suffix}`, request);
    };
  const GET = call('GET');

  async function history(session: string): Promise<HistoryItem[]> {
    const items: HistoryItem[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const body: Page<HistoryItem> = await GET(session, `/messages?limit=100${cursor ? `&cursor=${enc(cursor)}` : ''}`);
      items.push(...body.data);
      cursor = body.pagination.cursor;
      if (!body.pagination.hasMore || !cursor) break;
    }
    return items;
  }

  function remember(id: string | null): void {
    c.current = id;
    saveSession(c.apiKey, id === null ? null : { sessionId: id, visitorId: c.visitorId });
    c.follow();
  }

  /** Reloads a stored conversation: its state, then its history (spec 4.6, 4.7). */
  async function reload(stored: string): Promise<void> {
    const current = c.generation;
    set({ loading: true });
    try {
      const body = await GET<Envelope<SessionView>>(stored, '');
      if (current !== c.generation) return;
      // An ended conversation stays on screen until it is rated; after that the next visit starts afresh.
      if (body.data.status !== 'active' && body.data.rating !== null) return remember(null);
      const items = await history(stored);
      if (current !== c.generation) return;
      c.current = stored;
      set({
        // The history replaces what is on screen, except the messages not sent yet (the outbox, and what the
        // visitor typed while the history loaded): they follow it, and go out after it.
        messages: [...items.map(fromHistory), ...c.store.get().messages.filter((item) => item.status)],
        session: body.data.status === 'active' ? 'active' : 'ended',
        rating: body.data.rating,
      });
    } catch (error) {
      if (current !== c.generation || c.signal.aborted) return;
      const { code, status } = toApiError(error);
      if (code === 'identity_mismatch') return c.newVisitor();
      // The stored id is unknown or unusable (data reset, another widget): start a new conversation.
      if (code === 'session_not_found' || status === 400) return remember(null);
      restored = false;
      c.fail(error, () => void c.restore().then(() => void c.pump()));
    } finally {
      if (current === c.generation) set({ loading: false });
    }
  }

  return {
    fetchConfig,
    GET,
    POST: call('POST'),
    history,
    remember,

    /** A public key cannot choose a session id (DESIGN.md 4): the service names it. */
    async ensure() {
      // A message sent while the stored conversation still loads goes to that conversation.
      await c.restoring;
      if (c.current) return c.current;
      const { name, email, phone, company } = c.details;
      const body = await c.POST<Envelope<CreatedSession>>(null, '', {
        body: {
          visitorId: c.visitorId,
          language: (await fetchConfig()).language || navigator.language,
          ...timezone(),
          // JSON drops the undefined members.
          ...((name ?? email ?? phone ?? company) !== undefined && { visitorContext: { name, email, phone, company } }),
        },
      });
      remember(body.data.sessionId);
      set({ session: 'active' });
      return body.data.sessionId;
    },

    restore() {
      // Once per conversation, stored or not: a conversation begun on this page is on screen already (reopening
      // a bubble must not add its history a second time). Starting over counts as restored.
      if (!restored) {
        restored = true;
        const stored = loadSession(c.apiKey, c.visitorId);
        if (stored) c.restoring = reload(stored);
      }
      return c.restoring;
    },

    startOver() {
      c.generation++;
      restored = true;
      c.stopCountdown();
      remember(null);
      c.drop();
      set({ messages: [], session: 'none', rating: null, problem: null, typing: false, loading: false, announcement: '', sentForms: [] });
    },

    newVisitor() {
      clearStorage();
      saveVisitorId((c.visitorId = randomId('v_')));
      c.details = {};
      c.forgetIdentity();
      c.startOver();
    },
  };
}
