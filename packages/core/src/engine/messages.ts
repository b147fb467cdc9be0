import type { Principal, Widget } from '../domain.js';
import { SvcError } from '../errors.js';
import { renderAnswers, validateAnswers } from '../form-answers.js';
import { formSubmissionRequestSchema } from '../schemas/form.js';
import { sendMessageRequestSchema } from '../schemas/message.js';
import { parseInput } from '../schemas/validate.js';
import { loadWidget, requireScope } from './access.js';
import type { EngineContext } from './context.js';
import { enqueueTurn } from './callback-turns.js';
import { runTurn, type TurnInput, type TurnResult } from './turn.js';
import type { TurnObserver } from './observer.js';
import type { ResponseType } from '../schemas/response-type.js';

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

/** Sync and stream turns answer inline; callback turns are queued and answered 202 (spec 4.2). */
function dispatch(
  ctx: EngineContext,
  responseType: ResponseType | undefined,
  input: TurnInput,
  kind: 'message' | 'form',
  observer: TurnObserver | undefined,
): Promise<TurnResult> {
  if (responseType === 'callback') return enqueueTurn(ctx, { ...input, kind });
  return runTurn(ctx, input, { mode: responseType === 'stream' ? 'stream' : 'sync', observer });
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

/** POST …/messages (spec 4.2). */
export async function sendMessage(
  ctx: EngineContext,
  principal: Principal,
  widgetId: string,
  sessionId: string,
  body: unknown,
  observer?: TurnObserver,
): Promise<TurnResult> {
  const { input, widget } = await admitTurn(ctx, principal, widgetId, body, (b) => parseInput(sendMessageRequestSchema, b));
  const turn: TurnInput = {
    principal,
    widget,
    sessionId,
    userContent: input.content,
    visitorContext: input.visitorContext,
    identity: input.identity ?? null,
    timezone: input.timezone,
  };
  return dispatch(ctx, input.response_type, turn, 'message', observer);
}

/**
 * POST …/form-submissions (spec 4.3). A rejected submission (no pending form, wrong formId, invalid answer)
 * is refused under the session lock before anything is stored, billed or sent to the agent.
 */
export async function submitForm(
  ctx: EngineContext,
  principal: Principal,
  widgetId: string,
  sessionId: string,
  body: unknown,
  observer?: TurnObserver,
): Promise<TurnResult> {
  const { input, widget } = await admitTurn(ctx, principal, widgetId, body, (b) => parseInput(formSubmissionRequestSchema, b));
  return dispatch(ctx, input.response_type, {
    principal,
    widget,
    sessionId,
    userContent: '',
    visitorContext: undefined,
    identity: input.identity ?? null,
    timezone: input.timezone,
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
  }, 'form', observer);
}
