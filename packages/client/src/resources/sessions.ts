import { conversationsPath, sessionPath } from '../paths.js';
import type { Transport } from '../transport.js';
import { openSessionEvents, type SessionEventsOptions, type SessionEventsSettings, type SessionEventStream } from '../session-events.js';
import type {
  ApiResponse,
  CallOptions,
  CreatedSession,
  CreateSessionBody,
  EndedSession,
  PostOptions,
  RatedSession,
  RateSessionBody,
  Session,
} from '../types.js';

/** Session endpoints (spec 4.1, 4.4-4.6). */
export interface SessionsResource {
  /**
   * Creates a session (201), or resumes the active session with the given `sessionId` (200, `data.resumed`).
   *
   * @example
   * const { data } = await client.sessions.create('wgt_123', { visitorId: 'visitor-42', language: 'en' });
   */
  create(widgetId: string, body: CreateSessionBody, options?: PostOptions): Promise<ApiResponse<CreatedSession, 200 | 201>>;
  /**
   * Reads a session's state: status, message count, rating.
   *
   * @example
   * const { data } = await client.sessions.get('wgt_123', 'sess_abc');
   * if (data.status === 'resolved') showRating();
   */
  get(widgetId: string, sessionId: string, options?: CallOptions): Promise<ApiResponse<Session>>;
  /**
   * Ends (resolves) a session. Ending it again answers its original `resolvedAt` at no cost.
   *
   * @example
   * const { data } = await client.sessions.end('wgt_123', 'sess_abc');
   */
  end(widgetId: string, sessionId: string, options?: PostOptions): Promise<ApiResponse<EndedSession>>;
  /**
   * Rates a resolved or expired session; rating again replaces the rating.
   *
   * @example
   * await client.sessions.rate('wgt_123', 'sess_abc', { rating: 'positive' });
   */
  rate(widgetId: string, sessionId: string, body: RateSessionBody, options?: PostOptions): Promise<ApiResponse<RatedSession>>;
  /**
   * Follows the session live: `message.created` for replies a person writes during a handoff, `session.updated` on
   * every change of status, handoff or rating. Reconnects by itself after a drop and resumes with no event missed
   * or repeated; stop it with `options.signal` or by leaving the loop.
   *
   * @example
   * for await (const event of client.sessions.events('wgt_123', 'sess_abc')) {
   *   if (event.type === 'message.created') show(event.data.author?.name, event.data.content);
   *   if (event.type === 'session.updated' && event.data.status !== 'active') break;
   * }
   */
  events(widgetId: string, sessionId: string, options?: SessionEventsOptions): SessionEventStream;
}

export function createSessionsResource(transport: Transport, events: SessionEventsSettings): SessionsResource {
  return {
    events: (widgetId, sessionId, options) => openSessionEvents(events, widgetId, sessionId, options),
    create: (widgetId, body, options) => transport.post(conversationsPath(widgetId), body, options),
    get: (widgetId, sessionId, options) => transport.get(sessionPath(widgetId, sessionId), options),
    end: (widgetId, sessionId, options) => transport.post(`${sessionPath(widgetId, sessionId)}/end`, undefined, options),
    rate: (widgetId, sessionId, body, options) => transport.post(`${sessionPath(widgetId, sessionId)}/rate`, body, options),
  };
}
