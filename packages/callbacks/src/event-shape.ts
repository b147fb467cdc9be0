import { CallbackVerificationError } from './errors.js';
import type { CallbackEvent } from './events.js';

/**
 * Checks an authenticated payload against the types of `events.ts`, by hand to stay dependency-free. The body is
 * genuine by now, so a mismatch means the server speaks a newer (or older) payload version than this package:
 * the message says which field and to upgrade, rather than letting `undefined` surface later in the receiver.
 */

type Check = (value: unknown, path: string) => string | null;

const CREDIT_BUCKETS = ['chat', 'retrieval', 'orchestration', 'embedding', 'rerank', 'plugin', 'pluginRerank', 'crawler'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const string: Check = (value, path) => (typeof value === 'string' ? null : `${path} must be a string`);
const boolean: Check = (value, path) => (typeof value === 'boolean' ? null : `${path} must be a boolean`);
const number: Check = (value, path) => (typeof value === 'number' && Number.isFinite(value) ? null : `${path} must be a number`);
const exactly =
  (expected: unknown): Check =>
  (value, path) =>
    value === expected ? null : `${path} must be ${JSON.stringify(expected)}`;

function object(fields: Record<string, Check>, optional: readonly string[] = []): Check {
  return (value, path) => {
    if (!isRecord(value)) return `${path} must be an object`;
    for (const [field, check] of Object.entries(fields)) {
      if (optional.includes(field) && value[field] === undefined) continue;
      const problem = check(value[field], `${path}.${field}`);
      if (problem) return problem;
    }
    return null;
  };
}

function arrayOf(item: Check): Check {
  return (value, path) => {
    if (!Array.isArray(value)) return `${path} must be an array`;
    for (const [index, element] of value.entries()) {
      const problem = item(element, `${path}[${index}]`);
      if (problem) return problem;
    }
    return null;
  };
}

const messageCompleted = object({
  event: exactly('message.completed'),
  deliveryId: string,
  messageId: string,
  sessionId: string,
  widgetId: string,
  data: object(
    {
      content: string,
      products: arrayOf(object({ id: string, name: string, price: number })),
      actions: arrayOf(object({})),
      forms: arrayOf(
        object({ formId: string, title: string, questions: arrayOf(object({ id: string, label: string, kind: string, required: boolean })) }),
      ),
      sessionEnded: boolean,
      credits: object(Object.fromEntries(CREDIT_BUCKETS.map((bucket) => [bucket, number]))),
      usage: object({ inputTokens: number, outputTokens: number }),
      author: object({ type: exactly('operator'), name: string }),
    },
    ['forms', 'author'],
  ),
});

const messageFailed = object({
  event: exactly('message.failed'),
  deliveryId: string,
  messageId: exactly(null),
  sessionId: string,
  widgetId: string,
  error: object({ code: string, message: string }),
});

const oneOf =
  (...allowed: unknown[]): Check =>
  (value, path) =>
    allowed.includes(value) ? null : `${path} must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`;

const nullableString: Check = (value, path) => (value === null ? null : string(value, path));

/** The get-session view every lifecycle event carries as `data`. */
const lifecycleSession = object({
  sessionId: string,
  widgetId: string,
  visitorId: string,
  status: oneOf('active', 'resolved', 'expired'),
  messageCount: number,
  rating: oneOf('positive', 'negative', null),
  createdAt: string,
  resolvedAt: nullableString,
  handoff: (value, path) =>
    value === null || value === undefined
      ? null
      : object({ state: oneOf('requested', 'active'), since: string, operator: (v, p) => (v === null ? null : object({ name: string })(v, p)) })(value, path),
});

const lifecycle = (name: string, extra: Record<string, Check> = {}): Check =>
  object({ event: exactly(name), id: string, deliveryId: string, createdAt: string, ...extra, data: lifecycleSession });

const CHECKS: Record<CallbackEvent['event'], Check> = {
  'message.completed': messageCompleted,
  'message.failed': messageFailed,
  'session.created': lifecycle('session.created'),
  'session.resolved': lifecycle('session.resolved', { reason: oneOf('ended', 'agent', 'operator') }),
  'session.expired': lifecycle('session.expired'),
  'session.rated': lifecycle('session.rated'),
  'session.handoff': lifecycle('session.handoff', { state: oneOf('requested', 'active', 'released') }),
  'message.feedback': lifecycle('message.feedback', {
    feedback: object({
      messageId: string,
      rating: oneOf('up', 'down'),
      reason: oneOf('wrong', 'incomplete', 'unhelpful', 'other', null),
      comment: nullableString,
      updatedAt: string,
    }),
  }),
};

const UPGRADE = 'the signature is valid, so the sender is genuine: upgrade @svc/callbacks to the version matching your Svc server';

/** The typed event, or `invalid_body` naming the first field that does not match. */
export function parseCallbackEvent(text: string, headerEvent: string): CallbackEvent {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new CallbackVerificationError(
      'invalid_body',
      'The callback body is not valid JSON although its signature matched: make sure nothing (a proxy, a framework) ' +
        'rewrites the body, and pass the raw body exactly as received.',
    );
  }
  const name = isRecord(payload) ? payload.event : undefined;
  if (typeof name !== 'string' || !Object.hasOwn(CHECKS, name)) {
    throw new CallbackVerificationError(
      'invalid_body',
      `The callback body's "event" is ${JSON.stringify(name) ?? 'missing'}, not one of ${Object.keys(CHECKS).join(', ')}: ${UPGRADE}.`,
    );
  }
  if (name !== headerEvent) {
    // The event header is not signed; the body is. A mismatch means someone rewrote headers: trust neither.
    throw new CallbackVerificationError(
      'invalid_body',
      `The X-Svc-Event header says "${headerEvent}" but the signed body says "${name}": something between the Svc ` +
        'server and you rewrote the headers; route the request to this endpoint unmodified.',
    );
  }
  const problem = CHECKS[name as CallbackEvent['event']](payload, 'body');
  if (problem) throw new CallbackVerificationError('invalid_body', `The ${name} callback body is not the expected shape (${problem}): ${UPGRADE}.`);
  return payload as CallbackEvent;
}
