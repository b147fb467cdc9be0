import type { Principal, Widget } from '../domain.js';
import { SvcError } from '../errors.js';
import { renderAnswers, validateAnswers } from '../form-answers.js';
import { formSubmissionRequestSchema } from '../schemas/form.js';
import { sendMessageRequestSchema, type MessageReply, type ProcessingReply } from '../schemas/message.js';
import type { ResponseType } from '../schemas/response-type.js';
import { parseInput } from '../schemas/validate.js';
import { loadWidget, requireScope } from './access.js';
import type { EngineResult } from './context.js';
import type { EngineContext } from '../context.js';
import type { TurnObserver } from './observer.js';
import { safeObserver } from './observer.js';
import { acceptTurn, type TurnRequest } from './turns/accept.js';
import type { TurnRunner } from './turns/runner.js';
import { replyView } from './views.js';

export type TurnResult = EngineResult<MessageReply | ProcessingReply>;

/** What the adapter knows of the request beyond its body. */
export interface TurnCallOptions {
  /** The `Idempotency-Key` header and the SHA-256 (hex) of the raw body it was sent with. */
  idempotency?: { key: string; requestHash: string } | undefined;
}

/**
 * Spec 5.3.1: `identity` from a key without `identity:assert` is refused, never ignored. Checked before the
 * body is validated, so a key without the scope learns about the scope first.
 */
function requireIdentityScope(principal: Principal, body: unknown): void {
  const sent = typeof body === 'object' && body !== null && (body as { identity?: unknown }).identity !== undefined;
  if (!sent) return;
  if (principal.kind === 'public') {
    throw new SvcError('identity_scope_required', 'Public keys cannot send an identity object; the widget sends a signed identity token instead.', {
      field: 'identity',
    });
  }
  if (!principal.scopes.includes('identity:assert')) {
    throw new SvcError('identity_scope_required', 'Sending identity needs an API key with the "identity:assert" scope.', {
      field: 'identity',
    });
  }
}

/** Spec 4.2 / 7: callback mode needs a callback URL on the key (public keys never have one). */
function requireCallbackUrl(principal: Principal, responseType: ResponseType | undefined): void {
  if (responseType !== 'callback' || principal.callbackUrl) return;
  throw new SvcError('callback_not_configured', 'response_type "callback" needs a callback URL on the API key; configure one or use "sync".', {
    field: 'response_type',
  });
}

/** What both turn endpoints check first, in this order: scope, identity scope, body, callback URL, widget. */
async function admitTurn<T extends { response_type?: ResponseType | undefined }>(
  ctx: EngineContext,
  principal: Principal,
  widgetId: string,
  body: unknown,
  parse: (body: unknown) => T,
): Promise<{ input: T; widget: Widget }> {
  requireScope(principal, 'conversations:chat');
  requireIdentityScope(principal, body);
  const input = parse(body);
  requireCallbackUrl(principal, input.response_type);
  return { input, widget: await loadWidget(ctx, principal, widgetId) };
}

/**
 * Every turn is one durable job (DESIGN.md section 3a); the modes differ only in how the caller is answered:
 * `callback` 202 at once, `sync` the reply or 202 once the sync wait runs out, `stream` the reply's pieces as they
 * are written and then the reply. A repeat of an earlier request (same `Idempotency-Key`, same body, same caller)
 * is answered from the first one's job and bills nothing.
 */
async function answerTurn(ctx: EngineContext, runner: TurnRunner, request: TurnRequest, observer: TurnObserver | undefined): Promise<TurnResult> {
  const acceptance = await acceptTurn(ctx, request, runner);
  const { job } = acceptance;
  const watcher = safeObserver(observer);
  watcher?.onAccepted({ messageId: job.replyMessageId, sessionId: job.sessionId, replayed: acceptance.replay });

  let streamed = '';
  const waiting =
    request.mode === 'callback'
      ? null
      : runner.wait(job.id, {
          deadlineMs: request.mode === 'sync' ? ctx.syncTimeoutMs : ctx.agentTimeoutMs + ctx.syncTimeoutMs,
          fresh: !acceptance.replay,
          onDelta: watcher
            ? (text) => {
                streamed += text;
                watcher.onDelta(text);
              }
            : undefined,
        });
  if (!acceptance.replay) {
    const setting = { widget: request.widget, replyFormat: request.principal.replyFormat, callbackUrl: request.principal.callbackUrl };
    if (acceptance.claimed) runner.run(job, setting, acceptance.started);
    else runner.expect(job, setting);
  }
  const replayed = acceptance.replay ? { replayed: true as const } : {};
  if (!waiting) return { status: 202, data: { messageId: null, status: 'processing' }, creditsConsumed: 0, ...replayed };

  const outcome = await waiting;
  if (outcome === 'timeout') {
    if (request.mode === 'stream') {
      throw new SvcError('agent_unavailable', `The reply is taking too long to stream; it will appear in the history as ${job.replyMessageId}.`);
    }
    // DESIGN.md section 4: no 504 for slow models; the reply lands in the history under this id.
    return { status: 202, data: { messageId: job.replyMessageId, status: 'processing' }, creditsConsumed: 0, ...replayed };
  }
  if (!outcome.ok) throw outcome.error;
  // A handoff: a person answers, not the AI. Answered like callback mode (202, no message id): the person's reply
  // comes on the session event stream, the key's callback URL and the history (DESIGN.md section 6).
  if (outcome.reply === null) return { status: 202, data: { messageId: null, status: 'processing' }, creditsConsumed: 0, ...replayed };
  // An agent that does not stream: its whole content is the one delta. A turn streamed from another process whose
  // last pieces had not arrived (or were lost): the rest of its content.
  const { content } = outcome.reply;
  if (watcher && content.length > streamed.length && content.startsWith(streamed)) watcher.onDelta(content.slice(streamed.length));
  const data = replyView(outcome.reply, { format: request.principal.replyFormat, formatReply: ctx.formatReply });
  // A replay runs and bills nothing: what it reports consumed is 0.
  return { status: 200, data, creditsConsumed: acceptance.replay ? 0 : outcome.creditsConsumed, ...replayed };
}

/** POST …/messages (spec 4.2). */
export async function sendMessage(
  ctx: EngineContext,
  runner: TurnRunner,
  call: { principal: Principal; widgetId: string; sessionId: string; body: unknown },
  observer?: TurnObserver,
  options: TurnCallOptions = {},
): Promise<TurnResult> {
  const { principal } = call;
  const { input, widget } = await admitTurn(ctx, principal, call.widgetId, call.body, (b) => parseInput(sendMessageRequestSchema, b));
  return answerTurn(
    ctx,
    runner,
    {
      principal,
      widget,
      sessionId: call.sessionId,
      kind: 'message',
      mode: input.response_type ?? 'sync',
      content: input.content,
      visitorContext: input.visitorContext,
      identity: input.identity ?? null,
      timezone: input.timezone,
      idempotency: options.idempotency,
    },
    observer,
  );
}

/**
 * POST …/form-submissions (spec 4.3). A rejected submission (no pending form, wrong formId, invalid answer)
 * is refused on the locked session before anything is stored, billed or sent to the agent.
 */
export async function submitForm(
  ctx: EngineContext,
  runner: TurnRunner,
  call: { principal: Principal; widgetId: string; sessionId: string; body: unknown },
  observer?: TurnObserver,
  options: TurnCallOptions = {},
): Promise<TurnResult> {
  const { principal } = call;
  const { input, widget } = await admitTurn(ctx, principal, call.widgetId, call.body, (b) => parseInput(formSubmissionRequestSchema, b));
  return answerTurn(
    ctx,
    runner,
    {
      principal,
      widget,
      sessionId: call.sessionId,
      kind: 'form',
      mode: input.response_type ?? 'sync',
      content: '',
      visitorContext: undefined,
      identity: input.identity ?? null,
      timezone: input.timezone,
      idempotency: options.idempotency,
      precheck(session) {
        if (session.pendingFormId === null) {
          throw new SvcError('form_rejected', 'This session has no pending form; send answers only after a reply surfaced a form.', {
            field: 'formId',
          });
        }
        if (session.pendingFormId !== input.formId) {
          throw new SvcError('form_rejected', `formId ${input.formId} is not the pending form of this session.`, { field: 'formId' });
        }
        const form = widget.forms.find((f) => f.id === input.formId);
        if (!form) {
          throw new SvcError('form_rejected', `Form ${input.formId} is no longer offered by this widget.`, { field: 'formId' });
        }
        const answers = validateAnswers(form, input.answers, input.timezone ?? session.timezone ?? widget.timezone);
        return { content: renderAnswers(form, answers), answers: { formId: form.id, title: form.title, questions: form.questions } };
      },
    },
    observer,
  );
}
