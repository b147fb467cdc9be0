/**
 * The names of the service's stream events, apart from their schemas (./stream-events.ts) and importing nothing:
 * a reader that must stay small (the client, the widget, the console) takes only these, and as the package has no
 * side effects its bundler leaves the schemas and zod out.
 */

/** Events of a streamed turn (`response_type: "stream"`), in the order they come: start, deltas, one outcome. */
export const TURN_EVENT = {
  start: 'message.start',
  delta: 'message.delta',
  completed: 'message.completed',
  failed: 'message.failed',
  handoff: 'message.handoff',
} as const;
export type TurnEventName = (typeof TURN_EVENT)[keyof typeof TURN_EVENT];

/** Events of a session's event stream (`GET …/events`), also those of the console's account feed. */
export const SESSION_EVENT = {
  messageCreated: 'message.created',
  sessionUpdated: 'session.updated',
} as const;
export type SessionEventName = (typeof SESSION_EVENT)[keyof typeof SESSION_EVENT];
