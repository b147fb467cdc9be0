import type { ErrorCode } from '@svc/core';
import { conversationFiltersSchema, conversationMessageSchema, conversationSchema, conversationSummarySchema, metaSchema, operatorReplyRequestSchema, sessionSchema, envelope, parseInput, SESSION_EVENT } from '@svc/core/schemas';
import { z } from 'zod';
import type { AdminCaller } from './admin-auth.js';
import { streamEventLog } from './session-event-stream.js';
import { ADMIN, ANY_OPERATOR, BODY, ok, V1 } from './admin-route-kit.js';
import type { Route, RouteSpec } from './routes.js';

/**
 * The admin API's conversation routes (`/admin/v1/conversations`, `/admin/v1/events`): the console's inbox, for
 * owners and agents, translated to core's conversation and handoff operations.
 */

/** Who answers in the operator's place: the operator, or an admin key under its name. */
const operatorRef = (caller: AdminCaller) => ({ id: caller.operator?.id ?? null, name: caller.name });
/** The conversation a path names, in the caller's own account. */
const conversationOf = (caller: AdminCaller, params: Record<string, string>) => ({ accountId: caller.accountId, widgetId: params.widgetId!, sessionId: params.sessionId! });

const conversation = `${V1}/conversations/{widgetId}/{sessionId}`;
const CONVERSATION: ErrorCode[] = ['validation_failed', 'widget_not_found', 'session_not_found'];

/** An operator's action on a conversation, answered with the session after it. */
const sessionAction = (action: Pick<RouteSpec<'admin'>, 'operationId' | 'summary' | 'description' | 'handler'> & { suffix: string }): Route => ({
  method: 'post',
  path: `${conversation}/${action.suffix}`,
  operationId: action.operationId,
  tag: 'admin',
  summary: action.summary,
  description: action.description,
  auth: 'admin',
  roles: ANY_OPERATOR,
  responses: { 200: { schema: envelope(sessionSchema), description: 'The session after the change.' } },
  errors: [...ADMIN, ...CONVERSATION, 'invalid_json', 'session_not_active'],
  handler: action.handler,
});
/** Conversations, handoff and the live feed: owners and agents alike. */
export const CONVERSATION_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${V1}/conversations`,
    operationId: 'adminListConversations',
    tag: 'admin',
    summary: 'List conversations',
    description:
      "The account's sessions, newest first, each with the start of its last message: the console's inbox. Filter by widget, status, handoff (`requested`, `active`, `none`), rating and creation time; `meta.nextCursor` pages on (null on the last page).",
    auth: 'admin',
    roles: ANY_OPERATOR,
    query: conversationFiltersSchema,
    responses: {
      200: {
        schema: z.object({ data: z.array(conversationSummarySchema), meta: metaSchema.extend({ nextCursor: z.string().nullable() }) }),
        description: 'A page of conversations.',
      },
    },
    errors: [...ADMIN, 'validation_failed'],
    handler: async ({ c, core, caller, query }) => {
      const page = await core.admin.listConversations(caller.accountId, query);
      return c.json({ data: page.items, meta: { creditsConsumed: 0, nextCursor: page.nextCursor } });
    },
  },
  {
    method: 'get',
    path: conversation,
    operationId: 'adminGetConversation',
    tag: 'admin',
    summary: 'Read a conversation',
    description: 'The session and its whole history (up to 1,000 messages) with products, forms, credits and, on replies written by a person, their author.',
    auth: 'admin',
    roles: ANY_OPERATOR,
    responses: { 200: { schema: envelope(conversationSchema), description: 'The session and its messages.' } },
    errors: [...ADMIN, ...CONVERSATION],
    handler: async ({ core, caller, params }) => ok(await core.admin.getConversation(conversationOf(caller, params))),
  },
  sessionAction({
    suffix: 'handoff/accept',
    operationId: 'adminAcceptHandoff',
    summary: 'Take a conversation over',
    description:
      "The caller answers from now on instead of the AI (the handoff becomes `active` under their name; the visitor's widget shows it). Only an active session can be taken over.",
    handler: async ({ core, caller, params }) => ok(await core.admin.acceptHandoff(conversationOf(caller, params), operatorRef(caller))),
  }),
  {
    method: 'post',
    path: `${conversation}/messages`,
    operationId: 'adminReplyAsOperator',
    tag: 'admin',
    summary: 'Reply as a person',
    description:
      "Adds the caller's reply to the conversation (taking it over first if nobody has): the visitor's widget shows it at once, signed with the operator's name (an admin key's name for a key).",
    auth: 'admin',
    roles: ANY_OPERATOR,
    body: { schema: operatorReplyRequestSchema, required: true },
    responses: { 201: { schema: envelope(conversationMessageSchema), description: 'The reply as the history shows it.' } },
    errors: [...ADMIN, ...BODY, ...CONVERSATION, 'session_not_active'],
    handler: async ({ core, caller, params, body }) =>
      ok(await core.admin.replyAsOperator(conversationOf(caller, params), { operator: operatorRef(caller), text: parseInput(operatorReplyRequestSchema, body).text }), 201),
  },
  {
    method: 'get',
    path: `${V1}/events`,
    operationId: 'adminAccountEvents',
    tag: 'admin',
    summary: "The account's live events",
    description:
      `Server-sent events of every conversation of the account, for the console's live inbox: \`${SESSION_EVENT.messageCreated}\` (every message, the visitor's too) and \`${SESSION_EVENT.sessionUpdated}\` (status, handoff, rating), with the session stream's data plus \`widgetId\` and \`sessionId\`. Each event's \`id\` resumes the feed after it in \`Last-Event-ID\`, with no gap and no repeat; without it the feed starts now. A \`: ping\` comment every 15 s keeps it open.`,
    auth: 'admin',
    roles: ANY_OPERATOR,
    responses: { 200: { schema: z.string(), description: 'The event stream.', contentType: 'text/event-stream' } },
    errors: [...ADMIN, 'validation_failed'],
    handler: async ({ c, core, caller }) => {
      const { eventStreams } = c.var.server;
      // Per caller: a few tabs of one operator (or scripts of one key), not a whole team, share a cap.
      const holder = caller.operator?.id ?? caller.keyId!;
      return streamEventLog(c, {
        open: (signal) => core.events.account(caller.accountId, { lastEventId: c.req.header('last-event-id'), signal }),
        acquire: () => eventStreams.slots.acquire({ keyId: holder, session: `account-feed\u0000${holder}`, address: null }),
        options: eventStreams,
      });
    },
  },
  sessionAction({
    suffix: 'handoff/release',
    operationId: 'adminReleaseHandoff',
    summary: 'Give a conversation back to the AI',
    description: 'Ends the handoff: the AI answers the next visitor message again. A session without a handoff is answered as it is.',
    handler: async ({ core, caller, params }) => ok(await core.admin.releaseHandoff(conversationOf(caller, params))),
  }),
  sessionAction({
    suffix: 'resolve',
    operationId: 'adminResolveConversation',
    summary: 'Resolve a conversation',
    description: 'Resolves the session (reason `operator`), ending any handoff. A resolved session is answered as it is; an expired one cannot be resolved (409).',
    handler: async ({ core, caller, params }) => ok(await core.admin.resolveConversation(conversationOf(caller, params))),
  }),
];
