import { describe, expect, it } from 'vitest';
import {
  CALLBACK_VERIFICATION_REASONS,
  CallbackVerificationError,
  isCallbackVerificationError,
  safeVerifyCallback,
  signCallback,
  verifyCallback,
} from '@svc/callbacks';
import type { CallbackVerificationReason, VerifiedCallback } from '@svc/callbacks';
import { NOW, NOW_SECONDS, OLD_SECRET, SECRET, completedEvent, failedEvent, signedDelivery } from './deliveries.js';

const options = { secret: SECRET, now: NOW };

async function rejection(promise: Promise<unknown>): Promise<CallbackVerificationError> {
  const error = await promise.then(
    () => expect.unreachable('the delivery was accepted'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CallbackVerificationError);
  expect(isCallbackVerificationError(error)).toBe(true);
  return error as CallbackVerificationError;
}

async function expectRejected(promise: Promise<unknown>, reason: CallbackVerificationReason, message: RegExp): Promise<void> {
  const error = await rejection(promise);
  expect(error.reason).toBe(reason);
  expect(error.name).toBe('CallbackVerificationError');
  expect(error.message).toMatch(message);
}

describe('verifyCallback: a genuine delivery', () => {
  it('returns the typed message.completed event, the delivery id and the timestamp', async () => {
    const delivery = await signedDelivery();
    const verified: VerifiedCallback = await verifyCallback(delivery, options);
    expect(verified).toEqual({ event: completedEvent, deliveryId: 'dlv_01', timestamp: NOW_SECONDS });
    if (verified.event.event !== 'message.completed') throw new Error('narrowing');
    expect(verified.event.data.credits.plugin).toBe(0);
  });

  it('returns message.failed with messageId null and the error', async () => {
    const verified = await verifyCallback(await signedDelivery({ event: failedEvent }), options);
    expect(verified.event).toEqual(failedEvent);
  });

  it('accepts forms in message.completed data', async () => {
    const withForm = {
      ...completedEvent,
      data: {
        ...completedEvent.data,
        forms: [{ formId: 'frm_lead', title: 'Contact', questions: [{ id: 'email', label: 'Email', kind: 'email', required: true }] }],
      },
    };
    const verified = await verifyCallback(await signedDelivery({ event: withForm }), options);
    expect(verified.event).toEqual(withForm);
  });

  it('reads the current time itself when now is omitted', async () => {
    const delivery = await signedDelivery({ timestamp: Math.floor(Date.now() / 1000) });
    await expect(verifyCallback(delivery, { secret: SECRET })).resolves.toMatchObject({ deliveryId: 'dlv_01' });
  });
});

describe('verifyCallback: every rejection has its reason and a message with the remedy', () => {
  it('lists the reasons it can give', () => {
    expect(CALLBACK_VERIFICATION_REASONS).toEqual([
      'missing_header',
      'malformed_signature',
      'malformed_timestamp',
      'timestamp_too_old',
      'timestamp_too_new',
      'signature_mismatch',
      'invalid_body',
    ]);
  });

  it('rejects a genuine body replayed under another X-Svc-Delivery id: the signed deliveryId rules (issue 10)', async () => {
    const genuine = await signedDelivery({ deliveryId: 'dlv_original' });
    const replayed = { body: genuine.body, headers: { ...genuine.headers, 'X-Svc-Delivery': 'dlv_fresh_for_dedup' } };
    await expect(verifyCallback(replayed, { secret: SECRET, now: NOW })).rejects.toMatchObject({
      reason: 'invalid_body',
      message: expect.stringContaining('dlv_original'),
    });
    await expect(verifyCallback(genuine, { secret: SECRET, now: NOW })).resolves.toMatchObject({ deliveryId: 'dlv_original' });
  });

  it.each(['X-Svc-Signature', 'X-Svc-Timestamp', 'X-Svc-Event', 'X-Svc-Delivery'])('missing_header: %s', async (header) => {
    const delivery = await signedDelivery();
    const headers: Record<string, string> = { ...delivery.headers };
    delete headers[header];
    await expectRejected(
      verifyCallback({ body: delivery.body, headers }, options),
      'missing_header',
      new RegExp(`The ${header} header is missing: .*pass the request headers unmodified`),
    );
  });

  it('missing_header: a blank value counts as missing', async () => {
    const delivery = await signedDelivery();
    await expectRejected(
      verifyCallback({ body: delivery.body, headers: { ...delivery.headers, 'X-Svc-Signature': '  ' } }, options),
      'missing_header',
      /X-Svc-Signature header is missing/,
    );
  });

  it.each([
    ['not hex', 'zz'.repeat(32)],
    ['too short', 'ab'.repeat(31)],
    ['a prefixed scheme', `sha256=${'ab'.repeat(32)}`],
  ])('malformed_signature: %s', async (_case, signature) => {
    const delivery = await signedDelivery();
    await expectRejected(
      verifyCallback({ body: delivery.body, headers: { ...delivery.headers, 'X-Svc-Signature': signature } }, options),
      'malformed_signature',
      /not a 64-character hex HMAC-SHA256 digest .*Pass the header value unmodified/,
    );
  });

  it.each([
    ['milliseconds', String(NOW_SECONDS * 1000)],
    ['ISO date', NOW.toISOString()],
    ['negative', '-5'],
    ['decimal', `${NOW_SECONDS}.5`],
  ])('malformed_timestamp: %s', async (_case, timestamp) => {
    const delivery = await signedDelivery();
    await expectRejected(
      verifyCallback({ body: delivery.body, headers: { ...delivery.headers, 'X-Svc-Timestamp': timestamp } }, options),
      'malformed_timestamp',
      /not a Unix timestamp in whole seconds.*Math\.floor\(Date\.now\(\) \/ 1000\), not milliseconds/,
    );
  });

  it('signature_mismatch: the wrong secret', async () => {
    await expectRejected(
      verifyCallback(await signedDelivery({ secret: 'whsec_someone_else' }), options),
      'signature_mismatch',
      /pass the raw request body exactly as received, not parsed and re-serialised JSON; check the secret/,
    );
  });

  it('signature_mismatch: a tampered body', async () => {
    const delivery = await signedDelivery();
    const body = delivery.body.replace('Trail tent', 'Free tent');
    await expectRejected(verifyCallback({ body, headers: delivery.headers }, options), 'signature_mismatch', /raw request body exactly as received/);
  });

  it('signature_mismatch: re-serialised JSON (different bytes, same data)', async () => {
    const delivery = await signedDelivery({ body: JSON.stringify(completedEvent, null, 2) });
    const reserialised = JSON.stringify(JSON.parse(delivery.body));
    await expectRejected(
      verifyCallback({ body: reserialised, headers: delivery.headers }, options),
      'signature_mismatch',
      /not parsed and re-serialised JSON/,
    );
  });

  it('signature_mismatch: a tampered timestamp (a replay made to look fresh)', async () => {
    const delivery = await signedDelivery({ timestamp: NOW_SECONDS - 3600 });
    const headers = { ...delivery.headers, 'X-Svc-Timestamp': String(NOW_SECONDS) };
    await expectRejected(verifyCallback({ body: delivery.body, headers }, options), 'signature_mismatch', /check the secret/);
  });

  it('timestamp_too_old: one second past the 300 s default', async () => {
    await expectRejected(
      verifyCallback(await signedDelivery({ timestamp: NOW_SECONDS - 301 }), options),
      'timestamp_too_old',
      /signed correctly but its X-Svc-Timestamp is 301 s old, beyond the 300 s tolerance: .*sync the clock \(NTP\)/,
    );
  });

  it('timestamp_too_new: more than the tolerance in the future', async () => {
    await expectRejected(
      verifyCallback(await signedDelivery({ timestamp: NOW_SECONDS + 301 }), options),
      'timestamp_too_new',
      /signed correctly but its X-Svc-Timestamp is 301 s in the future, beyond the 300 s tolerance: .*sync the clock \(NTP\)/,
    );
  });

  it('invalid_body: a parsed object instead of the raw body', async () => {
    const delivery = await signedDelivery();
    const body = JSON.parse(delivery.body) as unknown as string;
    await expectRejected(
      verifyCallback({ body, headers: delivery.headers }, options),
      'invalid_body',
      /is an object, probably already parsed by a body parser: pass the raw request body exactly as received .*not parsed JSON.*express\.raw/,
    );
  });

  it('invalid_body: no body at all', async () => {
    const delivery = await signedDelivery();
    await expectRejected(
      verifyCallback({ body: undefined as unknown as string, headers: delivery.headers }, options),
      'invalid_body',
      /The callback body is undefined: pass the raw request body/,
    );
  });

  it('invalid_body: X-Svc-Event differs from the signed body', async () => {
    const delivery = await signedDelivery({ eventHeader: 'message.failed' });
    await expectRejected(
      verifyCallback(delivery, options),
      'invalid_body',
      /X-Svc-Event header says "message.failed" but the signed body says "message.completed": .*unmodified/,
    );
  });

  it('invalid_body: a signed body that is not JSON', async () => {
    await expectRejected(
      verifyCallback(await signedDelivery({ body: 'event=message.completed' }), options),
      'invalid_body',
      /not valid JSON although its signature matched/,
    );
  });

  it('invalid_body: a signed body that is not UTF-8', async () => {
    const body = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]);
    const signature = await signCallback(SECRET, NOW_SECONDS, body);
    const headers = { 'x-svc-signature': signature, 'x-svc-timestamp': String(NOW_SECONDS), 'x-svc-event': 'message.completed', 'x-svc-delivery': 'd' };
    await expectRejected(verifyCallback({ body, headers }, options), 'invalid_body', /not valid UTF-8 although its signature matched/);
  });

  it('invalid_body: an event this version does not know', async () => {
    await expectRejected(
      verifyCallback(await signedDelivery({ event: { event: 'session.ended', sessionId: 's' } }), options),
      'invalid_body',
      /"event" is "session.ended", not one of message.completed, message.failed, session.created, .*: .*upgrade @svc\/callbacks/,
    );
  });

  it('invalid_body: a known event missing a typed field (the 1.31.0 credits.api → credits.plugin rename)', async () => {
    const { plugin: _plugin, ...oldCredits } = completedEvent.data.credits;
    const old = { ...completedEvent, data: { ...completedEvent.data, credits: { ...oldCredits, api: 0 } } };
    await expectRejected(
      verifyCallback(await signedDelivery({ event: old }), options),
      'invalid_body',
      /message.completed callback body is not the expected shape \(body.data.credits.plugin must be a number\): .*upgrade/,
    );
  });

  it('invalid_body: message.failed must carry messageId null', async () => {
    await expectRejected(
      verifyCallback(await signedDelivery({ event: { ...failedEvent, messageId: 'msg_1' } }), options),
      'invalid_body',
      /body.messageId must be null/,
    );
  });
});

describe('verifyCallback: timestamp tolerance', () => {
  it.each([
    ['exactly 300 s old', -300],
    ['exactly 300 s ahead', 300],
    ['now', 0],
  ])('accepts a delivery %s', async (_case, offset) => {
    await expect(verifyCallback(await signedDelivery({ timestamp: NOW_SECONDS + offset }), options)).resolves.toBeDefined();
  });

  it('honours a custom tolerance in both directions', async () => {
    const custom = { ...options, toleranceSeconds: 10 };
    await expect(verifyCallback(await signedDelivery({ timestamp: NOW_SECONDS - 10 }), custom)).resolves.toBeDefined();
    await expectRejected(verifyCallback(await signedDelivery({ timestamp: NOW_SECONDS - 11 }), custom), 'timestamp_too_old', /10 s tolerance/);
    await expectRejected(verifyCallback(await signedDelivery({ timestamp: NOW_SECONDS + 11 }), custom), 'timestamp_too_new', /10 s tolerance/);
  });

  it('treats toleranceSeconds: 0 as "this second", never as "no check" (Stripe’s tolerance || 0 pitfall)', async () => {
    const strict = { ...options, toleranceSeconds: 0 };
    await expect(verifyCallback(await signedDelivery(), strict)).resolves.toBeDefined();
    await expectRejected(verifyCallback(await signedDelivery({ timestamp: NOW_SECONDS - 1 }), strict), 'timestamp_too_old', /1 s old, beyond the 0 s/);
    await expectRejected(verifyCallback(await signedDelivery({ timestamp: NOW_SECONDS + 1 }), strict), 'timestamp_too_new', /1 s in the future/);
  });

  it('reads a now() function on each call', async () => {
    let current = NOW;
    const delivery = await signedDelivery();
    const clocked = { secret: SECRET, now: () => current };
    await expect(verifyCallback(delivery, clocked)).resolves.toBeDefined();
    current = new Date(NOW.getTime() + 301_000);
    await expectRejected(verifyCallback(delivery, clocked), 'timestamp_too_old', /301 s old/);
  });

  it.each([
    ['negative', -1],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a string', '300' as unknown as number],
  ])('rejects a %s tolerance with a TypeError, not a disabled check', async (_case, toleranceSeconds) => {
    const delivery = await signedDelivery();
    await expect(verifyCallback(delivery, { ...options, toleranceSeconds })).rejects.toThrow(
      new TypeError(`toleranceSeconds must be a finite number of seconds >= 0 (got ${String(toleranceSeconds)}); omit it for the default of 300`),
    );
  });

  it('refuses an invalid clock rather than accepting everything', async () => {
    await expect(verifyCallback(await signedDelivery(), { secret: SECRET, now: new Date(Number.NaN) })).rejects.toThrow(
      new TypeError('options.now returned an invalid Date'),
    );
  });
});

describe('verifyCallback: secrets and signatures', () => {
  it('accepts a delivery signed with any of several secrets (rotation)', async () => {
    const rotating = { secrets: [SECRET, OLD_SECRET], now: NOW };
    await expect(verifyCallback(await signedDelivery({ secret: OLD_SECRET }), rotating)).resolves.toBeDefined();
    await expect(verifyCallback(await signedDelivery({ secret: SECRET }), rotating)).resolves.toBeDefined();
    await expectRejected(verifyCallback(await signedDelivery({ secret: 'whsec_other' }), rotating), 'signature_mismatch', /check the secret/);
  });

  it('accepts a header carrying several signatures, comma or space separated, if one matches', async () => {
    const delivery = await signedDelivery();
    const good = delivery.headers['X-Svc-Signature'];
    const other = await signCallback(OLD_SECRET, NOW_SECONDS, delivery.body);
    for (const header of [`${other},${good}`, `${other} ${good}`, `${other}, ${good}`, `${good.toUpperCase()}`]) {
      const headers = { ...delivery.headers, 'X-Svc-Signature': header };
      await expect(verifyCallback({ body: delivery.body, headers }, options)).resolves.toBeDefined();
    }
    const headers = { ...delivery.headers, 'X-Svc-Signature': `${other} ${other}` };
    await expectRejected(verifyCallback({ body: delivery.body, headers }, options), 'signature_mismatch', /check the secret/);
  });

  it('rejects a list with a malformed entry', async () => {
    const delivery = await signedDelivery();
    const headers = { ...delivery.headers, 'X-Svc-Signature': `${delivery.headers['X-Svc-Signature']},v1=abc` };
    await expectRejected(verifyCallback({ body: delivery.body, headers }, options), 'malformed_signature', /got "v1=abc"/);
  });

  it.each([
    ['no secret', {}, /No callback secret: pass \{ secret \}/],
    ['an empty secrets list', { secrets: [] }, /No callback secret/],
    ['an empty secret (unset environment variable)', { secret: '' }, /non-empty string; check the environment variable/],
    ['both secret and secrets', { secret: SECRET, secrets: [OLD_SECRET] }, /either secret or secrets, not both/],
  ])('throws a TypeError for %s', async (_case, bad, message) => {
    const error = await verifyCallback(await signedDelivery(), bad as never).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('verifyCallback: inputs as frameworks hand them over', () => {
  it('reads a Headers instance, a record in any case, and Node-style arrays (first value)', async () => {
    const delivery = await signedDelivery();
    const lower = Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name.toLowerCase(), value]));
    const upper = Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name.toUpperCase(), value]));
    const arrays = Object.fromEntries(Object.entries(lower).map(([name, value]) => [name, [value, 'ignored']]));
    for (const headers of [new Headers(delivery.headers), delivery.headers, lower, upper, arrays]) {
      await expect(verifyCallback({ body: delivery.body, headers }, options)).resolves.toMatchObject({ deliveryId: 'dlv_01' });
    }
  });

  it('verifies string, Uint8Array, Buffer and ArrayBuffer bodies alike', async () => {
    const delivery = await signedDelivery();
    const bytes = new TextEncoder().encode(delivery.body);
    // A view into a larger buffer, as Node's pooled Buffers are: only the viewed bytes are the body.
    const padded = new Uint8Array(bytes.length + 8);
    padded.set(bytes, 4);
    for (const body of [delivery.body, bytes, Buffer.from(delivery.body), bytes.slice().buffer, padded.subarray(4, 4 + bytes.length)]) {
      await expect(verifyCallback({ body, headers: delivery.headers }, options)).resolves.toMatchObject({ event: completedEvent });
    }
  });
});

describe('safeVerifyCallback', () => {
  it('returns ok: true with the event, delivery id and timestamp', async () => {
    const result = await safeVerifyCallback(await signedDelivery({ deliveryId: 'dlv_42' }), options);
    expect(result).toEqual({ ok: true, event: { ...completedEvent, deliveryId: 'dlv_42' }, deliveryId: 'dlv_42', timestamp: NOW_SECONDS });
  });

  it('returns ok: false with the error for a rejected delivery', async () => {
    const result = await safeVerifyCallback(await signedDelivery({ timestamp: NOW_SECONDS - 301 }), options);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(CallbackVerificationError);
    expect(result.error.reason).toBe('timestamp_too_old');
    expect(result.error.message).toMatch(/301 s old/);
  });

  it('still throws for misconfiguration, which is a bug rather than a bad delivery', async () => {
    await expect(safeVerifyCallback(await signedDelivery(), { ...options, toleranceSeconds: -1 })).rejects.toBeInstanceOf(TypeError);
  });
});

describe('isCallbackVerificationError', () => {
  it('recognises the error without instanceof (two copies of the package) and nothing else', () => {
    const lookalike = Object.assign(new Error('x'), { name: 'CallbackVerificationError', reason: 'signature_mismatch' });
    expect(isCallbackVerificationError(lookalike)).toBe(true);
    expect(isCallbackVerificationError(Object.assign(new Error('x'), { name: 'CallbackVerificationError', reason: 'nope' }))).toBe(false);
    expect(isCallbackVerificationError(new TypeError('x'))).toBe(false);
    expect(isCallbackVerificationError(null)).toBe(false);
  });
});
