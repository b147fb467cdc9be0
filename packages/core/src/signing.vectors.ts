/**
 * Known-answer vectors for the callback signature of spec 6 (DESIGN.md section 3, "Signing"): hex HMAC-SHA256,
 * keyed with the UTF-8 bytes of the secret string, over `${timestamp}.${body}`.
 *
 * One file shared by the server's signer (`signCallback` in this package) and the receivers' verifier
 * (`@svc/callbacks`), so the two can never drift apart silently. The expected signatures were computed once with
 * Node's `createHmac('sha256', secret).update(`${timestamp}.${body}`)` and are hard-coded on purpose: a vector
 * recomputed by the code under test would prove nothing.
 */
export interface CallbackSignatureVector {
  /** What the vector exercises, used as the test name. */
  name: string;
  secret: string;
  /** Unix seconds, as sent in `X-Svc-Timestamp`. */
  timestamp: number;
  /** The raw request body exactly as sent. */
  body: string;
  /** Lower-case hex, as sent in `X-Svc-Signature`. */
  signature: string;
}

/** Longer than one SHA-256 block (64 bytes) for the key and many blocks for the message. */
const LONG_BODY = `{"event":"message.completed","data":{"content":"${'All tents ship within 2 days. '.repeat(400)}"}}`;

export const CALLBACK_SIGNATURE_VECTORS: readonly CallbackSignatureVector[] = [
  {
    name: 'ASCII secret and body',
    secret: 'whsec_test_secret',
    timestamp: 1767225600,
    body: '{"event":"message.completed","messageId":"msg_01","sessionId":"sess_01","widgetId":"wgt_01"}',
    signature: '94003a99ee22c24d6c9c3c8a0d83f9fbfcd0226494fbc2c3ebd691c17e70511b',
  },
  {
    // Accents, the euro sign and an emoji (a surrogate pair in JS, 4 bytes in UTF-8): signing must hash UTF-8 bytes.
    name: 'unicode body',
    secret: 'whsec_test_secret',
    timestamp: 1767225601,
    body: '{"event":"message.completed","data":{"content":"Très bien ! Ça coûte 12 € 🏕️ 日本語"}}',
    signature: 'f5a3dd47c6e9038507b72b5e4092707a64877f4c24706a63b321476e19269928',
  },
  {
    name: 'unicode secret',
    secret: 'clé-secrète-🔑-日本',
    timestamp: 1767225602,
    body: '{"event":"message.failed","messageId":null}',
    signature: 'c5e2d8bda700a59c6d3ec9068be8298df01dcc6275ab7c786d0b1ad73e035c73',
  },
  {
    name: 'empty-ish body {}',
    secret: 'whsec_test_secret',
    timestamp: 1767225603,
    body: '{}',
    signature: '011124f887204dc05da6cb1192df0839f7d201acb6b7ece2d901b7da6d81600a',
  },
  {
    // HMAC hashes keys longer than the block size first: a second code path worth pinning.
    name: 'long body (12 KB) and long secret (106 bytes)',
    secret: `whsec_${'k'.repeat(100)}`,
    timestamp: 1767225604,
    body: LONG_BODY,
    signature: 'fe73d028f544be2595d9d0d4dd3916396fd0c087054b47a4438e36fed699b310',
  },
  {
    // Quotes, a backslash and a trailing space: the secret is used exactly as shown, never trimmed or escaped.
    name: 'secret with symbols and a trailing space',
    secret: 'whsec_!@#$%^&*()_+-=[]{}|;\':",./<>?`~\\ ',
    timestamp: 1767225605,
    body: '{"event":"message.completed"}',
    signature: '6e434f8b159397ec987e55e5bedbead7999baea2c5e22f4468191e64ae846e89',
  },
  {
    // The raw body is signed byte for byte: re-serialised JSON (no CRLF, no tabs) would not match.
    name: 'body with whitespace and line breaks',
    secret: 'whsec_test_secret',
    timestamp: 1767225606,
    body: '{\r\n  "event": "message.completed",\n\t"x": 1\n}\n',
    signature: '7257ac49f32b84bb23165912249c003b53d460d8f3205b55318282ad18faf83f',
  },
];
