import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A seeded HTTP fuzzer for the API (issue 10): requests over every endpoint with mutated types, unicode, NUL,
 * unpaired surrogates, huge bodies, odd headers, methods, ids and cursors, sent over real keep-alive sockets to
 * a running server. It counts what a client must never see: 5xx answers, answers that are not JSON, and dropped
 * connections. The same seed always sends the same requests.
 */

export interface FuzzTarget {
  /** `http://127.0.0.1:<port>` */
  url: string;
  widgetId: string;
  knowledgeBaseId: string;
  sessionIds: string[];
  productIds: string[];
  documentIds: string[];
  serverKey: string;
  publicKey: string;
  /** An origin the public key allows. */
  origin: string;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What the request carried, so anomalies can be attributed (see `Finding.cause`). */
  traits: Set<FuzzTrait>;
}

export type FuzzTrait = 'nul' | 'surrogate' | 'huge-body' | 'stream' | 'head' | 'asset' | 'preflight';

export interface Finding {
  kind: '5xx' | 'non-json' | 'dropped';
  request: string;
  status: number | null;
  detail: string;
  /** The request traits present, e.g. `nul` for a 5xx caused by a NUL byte PostgreSQL cannot store. */
  traits: FuzzTrait[];
}

export interface FuzzReport {
  seed: number;
  requests: number;
  byClass: Record<'2xx' | '3xx' | '4xx' | '5xx', number>;
  fiveXx: number;
  nonJson: number;
  dropped: number;
  findings: Finding[];
  ms: number;
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUL = '\u0000';
const LONE_HIGH = '\ud800';
const LONE_LOW = '\udfff';
const WEIRD_STRINGS = [
  '',
  ' ',
  'a',
  'é',
  '日本語のテキスト',
  '🙂👍🏽',
  'ｆｕｌｌｗｉｄｔｈ',
  'Zalgo z̷̢͎̈a̸̧̛l̴g̵o',
  '\u202eRTL override',
  '\ufeffBOM',
  '<script>alert(1)</script>',
  "'; drop table sessions; --",
  '../../etc/passwd',
  '%00',
  '%2e%2e%2f',
  '\\u0000',
  'null',
  'true',
  '1e309',
  'line\nbreak\r\n',
  `nul${NUL}inside`,
  `lone${LONE_HIGH}high`,
  `lone${LONE_LOW}low`,
  'x'.repeat(5_000),
];
const WEIRD_VALUES: unknown[] = [null, true, false, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, [], {}, [1, 'a'], { a: { b: { c: {} } } }, ...WEIRD_STRINGS];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'APPLICATION/JSON', ''];

interface Endpoint {
  method: string;
  /** Path segments: literal text or a placeholder. */
  path: Array<string | ':widget' | ':session' | ':kb' | ':product' | ':document'>;
  body?: () => Record<string, unknown>;
  public?: boolean;
}

const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: ['healthz'] },
  { method: 'GET', path: ['widget', 'config'], public: true },
  {
    method: 'POST',
    path: ['widgets', ':widget', 'conversations'],
    public: true,
    body: () => ({ visitorId: 'visitor-1', language: 'en-GB', timezone: 'Europe/London', visitorContext: { name: 'Ada', email: 'ada@example.com', page: '/p' } }),
  },
  { method: 'POST', path: ['widgets', ':widget', 'conversations', ':session', 'messages'], public: true, body: () => ({ content: 'Do you ship to Canada?' }) },
  { method: 'GET', path: ['widgets', ':widget', 'conversations', ':session', 'messages'], public: true },
  { method: 'POST', path: ['widgets', ':widget', 'conversations', ':session', 'form-submissions'], public: true, body: () => ({ formId: 'callback', answers: { phone: '+44 20 7946 0000' } }) },
  { method: 'POST', path: ['widgets', ':widget', 'conversations', ':session', 'end'], public: true },
  { method: 'POST', path: ['widgets', ':widget', 'conversations', ':session', 'rate'], public: true, body: () => ({ rating: 'positive' }) },
  { method: 'GET', path: ['widgets', ':widget', 'conversations', ':session'], public: true },
  { method: 'GET', path: ['knowledge-bases', ':kb', 'products'] },
  { method: 'POST', path: ['knowledge-bases'], body: () => ({ name: 'Fuzz KB' }) },
  { method: 'GET', path: ['knowledge-bases'] },
  { method: 'GET', path: ['knowledge-bases', ':kb'] },
  { method: 'POST', path: ['knowledge-bases', ':kb', 'products'], body: () => ({ products: [{ id: 'fz-1', name: 'Tent', price: 10, currency: 'EUR', description: 'A tent' }] }) },
  { method: 'PUT', path: ['knowledge-bases', ':kb', 'products', ':product'], body: () => ({ name: 'Tent', price: 12.5 }) },
  { method: 'DELETE', path: ['knowledge-bases', ':kb', 'products', ':product'] },
  { method: 'GET', path: ['knowledge-bases', ':kb', 'documents'] },
  { method: 'POST', path: ['knowledge-bases', ':kb', 'documents'], body: () => ({ title: 'Returns', content: 'Returns within 30 days.', url: 'https://shop.example/returns' }) },
  { method: 'PUT', path: ['knowledge-bases', ':kb', 'documents', ':document'], body: () => ({ title: 'Shipping', content: 'We ship worldwide.' }) },
  { method: 'DELETE', path: ['knowledge-bases', ':kb', 'documents', ':document'] },
  { method: 'POST', path: ['knowledge-bases', ':kb', 'search'], body: () => ({ query: 'tent', limit: 5 }) },
  { method: 'GET', path: ['openapi.json'] },
  { method: 'GET', path: ['docs'] },
  { method: 'GET', path: ['widget.js'] },
  { method: 'GET', path: ['demo'] },
];
const ASSETS = new Set(['/docs', '/widget.js', '/demo']);

/** encodeURIComponent, except that lone surrogates become U+FFFD instead of throwing. */
function pct(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9\-_.!~*'()]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** Builds request number `index` of a run; pure given `random`. */
export function generateRequest(random: () => number, target: FuzzTarget): FuzzRequest {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number): boolean => random() < p;
  const traits = new Set<FuzzTrait>();
  const endpoint = pick(ENDPOINTS);

  const mutateId = (id: string): string => {
    if (!chance(0.3)) return pct(id);
    const choice = Math.floor(random() * 12);
    switch (choice) {
      case 0:
        traits.add('nul');
        return `${pct(id)}%00x`;
      case 1:
        traits.add('surrogate');
        return `${pct(id)}%ED%A0%80`;
      case 2:
        return '%E0%A4%A'; // malformed escape
      case 3:
        return pct('x'.repeat(2_000 + Math.floor(random() * 6_000)));
      case 4: {
        const text = pick(WEIRD_STRINGS).slice(0, 300);
        if (text.includes(NUL)) traits.add('nul');
        if (/[\ud800-\udfff]/.test(text)) traits.add('surrogate');
        return pct(text) || '%20';
      }
      case 5:
        return '..';
      case 6:
        return '%2F%2F';
      case 7:
        return pct('🙂');
      case 8:
        return `${id}%0d%0aX-Injected:%201`;
      case 9:
        return 'sess_' + Math.floor(random() * 1e9).toString(36);
      case 10:
        return pct(id.toUpperCase());
      default:
        return '%FF%FE';
    }
  };
  const segment = (s: string): string => {
    switch (s) {
      case ':widget':
        return mutateId(target.widgetId);
      case ':session':
        return mutateId(pick(target.sessionIds));
      case ':kb':
        return mutateId(target.knowledgeBaseId);
      case ':product':
        return mutateId(pick(target.productIds));
      case ':document':
        return mutateId(pick(target.documentIds));
      default:
        return s;
    }
  };
  let path = '/' + endpoint.path.map(segment).join('/');
  if (chance(0.03)) path += '/';
  if (chance(0.02)) path = path.replace('/', '//');
  if (ASSETS.has(path)) traits.add('asset');

  // Query strings: limits, cursors and junk.
  if (chance(0.35)) {
    const params: string[] = [];
    if (chance(0.6)) params.push(`limit=${pct(String(pick(['1', '50', '100', '101', '0', '-1', 'abc', '1.5', '1e3', '', '9'.repeat(40), '%00'])))}`);
    if (chance(0.6)) {
      const cursor = pick([
        'abc',
        '',
        'eyJ2IjoxLCJwIjoiYSJ9',
        'eyJ2Ijo5OTk5OTk5OTk5OTk5OTk5OTk5OTk5fQ',
        Buffer.from(JSON.stringify({ v: 1, p: { afterSeq: -5 } })).toString('base64url'),
        'x'.repeat(600),
        '%00',
        '%ED%A0%80',
        '..%2F',
      ]);
      if (cursor.includes('%00')) traits.add('nul');
      params.push(`cursor=${cursor}`);
    }
    if (chance(0.2)) params.push('limit=1&limit=2');
    if (chance(0.2)) params.push(`${pct(pick(WEIRD_STRINGS).slice(0, 40))}=1`);
    path += `?${params.join('&')}`;
  }

  let method = endpoint.method;
  if (chance(0.08)) method = pick(METHODS);
  if (method === 'HEAD') traits.add('head');

  const headers: Record<string, string> = {};
  const usePublic = endpoint.public && chance(0.4);
  const keyChoice = random();
  if (keyChoice < 0.82) headers['X-API-Key'] = usePublic ? target.publicKey : target.serverKey;
  else if (keyChoice < 0.87) headers['X-API-Key'] = pick(['sk_live_' + 'a'.repeat(40), 'pk_live_short', 'garbage', ' ', 'sk_live_' + 'é'.repeat(20), 'x'.repeat(4_000)]);
  if (usePublic || chance(0.05)) headers.Origin = chance(0.85) ? target.origin : pick(['https://evil.example', 'null', 'http://localhost', 'x']);
  if (chance(0.05)) headers['X-Identity-Token'] = pick(['a.b.c', 'eyJhbGciOiJub25lIn0.e30.', 'x'.repeat(3_000), '']);
  if (chance(0.08)) headers['Idempotency-Key'] = pick(['k1', 'k2', '', 'x'.repeat(500), '🙂']);
  if (chance(0.03)) headers['X-Forwarded-For'] = pick(['1.2.3.4', 'garbage, , ,', '::1', 'x'.repeat(1000)]);
  if (chance(0.02)) headers['Accept'] = pick(['text/html', '*/*', 'application/xml']);
  if (chance(0.02)) headers['Host'] = pick(['xn--', 'a b', 'localhost:99999', '[::1', 'example.com:abc']);
  if (chance(0.02)) headers['Transfer-Encoding'] = 'chunked';
  if (method === 'OPTIONS' && chance(0.5)) {
    headers['Access-Control-Request-Method'] = pick(['POST', 'GET', 'DELETE']);
    traits.add('preflight');
  }

  let body: string | Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD' && (endpoint.body || chance(0.2))) {
    const base: Record<string, unknown> = endpoint.body ? endpoint.body() : {};
    body = mutateBody(base, random, traits);
    if (!('Content-Type' in headers)) headers['Content-Type'] = chance(0.9) ? 'application/json' : pick(CONTENT_TYPES);
  } else if (chance(0.03)) {
    body = pick(['{}', 'null', '[]', '{"a":1}']);
    headers['Content-Type'] = 'application/json';
  }
  // Framed explicitly: Node's client sends a GET or HEAD body unframed otherwise, and the server would rightly read
  // those bytes as a malformed next request (a client artefact, not a server defect).
  if (body !== undefined && headers['Transfer-Encoding'] === undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
  if (body !== undefined && Buffer.byteLength(body) > 64 * 1024) traits.add('huge-body');
  if (typeof body === 'string' && body.includes('"stream"')) traits.add('stream');
  return { method, path, headers, ...(body === undefined ? {} : { body }), traits };
}

function mutateBody(base: Record<string, unknown>, random: () => number, traits: Set<FuzzTrait>): string | Buffer {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number): boolean => random() < p;
  const note = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (value.includes(NUL)) traits.add('nul');
      if (/[\ud800-\udfff]/.test(value) && !/[\ud800-\udbff][\udc00-\udfff]/.test(value)) traits.add('surrogate');
    }
    return value;
  };

  const raw = random();
  if (raw < 0.04) return pick(['', '{', '{"a":', 'nul', '\u0000', '{"content":"\\ud800"}', '{"content":"\\u0000"}', '[1,2', '"str"', '12', '{}garbage', Buffer.from([0xff, 0xfe, 0x00, 0x7b])]) as string | Buffer;
  if (raw < 0.05) {
    const size = pick([65 * 1024, 200 * 1024, 1024 * 1024]);
    traits.add('huge-body');
    return JSON.stringify({ ...base, content: 'x'.repeat(size) });
  }
  if (raw < 0.06) {
    let nested: unknown = 'deep';
    for (let i = 0; i < 2_000; i++) nested = [nested];
    return JSON.stringify({ ...base, visitorContext: nested });
  }

  const body: Record<string, unknown> = { ...base };
  const keys = Object.keys(body);
  const mutations = Math.floor(random() * 3);
  for (let i = 0; i < mutations; i++) {
    const action = random();
    if (action < 0.35 && keys.length > 0) body[pick(keys)] = note(pick(WEIRD_VALUES));
    else if (action < 0.5 && keys.length > 0) delete body[pick(keys)];
    else if (action < 0.62) body[pick(['responseType', 'response_type', 'sessionId', 'identity', 'extra', '__proto__', 'constructor'])] = note(pick(['callback', 'stream', 'sync', ...WEIRD_VALUES]));
    else if (action < 0.75) {
      const field = pick(['content', 'visitorId', 'name', 'title', 'query', 'language', 'timezone']);
      body[field] = note(pick(WEIRD_STRINGS));
    } else if (action < 0.85) {
      body.visitorContext = { name: note(pick(WEIRD_STRINGS)), email: note(pick(WEIRD_STRINGS)), [String(pick(WEIRD_STRINGS)).slice(0, 20)]: note(pick(WEIRD_VALUES)) };
    } else if (action < 0.92) {
      body.products = [{ id: note(pick(WEIRD_STRINGS).slice(0, 50)), name: note(pick(WEIRD_STRINGS)), price: pick(WEIRD_VALUES) }];
    } else {
      body.answers = { [String(pick(WEIRD_STRINGS)).slice(0, 30)]: note(pick(WEIRD_VALUES)) };
    }
  }
  if (chance(0.03)) return JSON.stringify([body]);
  return JSON.stringify(body);
}

interface Outcome {
  status: number | null;
  headers: IncomingHttpHeaders;
  body: Buffer;
  error: string | null;
}

function send(agent: Agent, base: URL, req: FuzzRequest, previousOnSocket: Map<Socket, FuzzRequest>, timeoutMs: number): Promise<Outcome & { afterHuge: boolean; previous: FuzzRequest | undefined }> {
  return new Promise((resolve) => {
    let afterHuge = false;
    let previous: FuzzRequest | undefined;
    let settled = false;
    const finish = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      resolve({ ...outcome, afterHuge, previous });
    };
    let r: ReturnType<typeof httpRequest>;
    try {
      r = httpRequest(
        { host: base.hostname, port: base.port, method: req.method, path: req.path, headers: req.headers, agent, timeout: timeoutMs },
        (res) => {
          // A session's event stream stays open by design: its status and headers are the whole answer.
          if (res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/event-stream') && /\/events(\?|$)/.test(req.path)) {
            finish({ status: res.statusCode, headers: res.headers, body: Buffer.alloc(0), error: null });
            res.destroy();
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), error: null }));
          res.on('error', (error) => finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0), error: error.message }));
        },
      );
    } catch (error) {
      // The client refused to send it (an invalid header value): not the server's doing, not counted.
      return finish({ status: -1, headers: {}, body: Buffer.alloc(0), error: (error as Error).message });
    }
    r.on('socket', (socket: Socket) => {
      previous = previousOnSocket.get(socket);
      afterHuge = previous?.traits.has('huge-body') ?? false;
      previousOnSocket.set(socket, req);
    });
    r.on('timeout', () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', (error) => finish({ status: null, headers: {}, body: Buffer.alloc(0), error: error.message }));
    r.end(req.body);
  });
}

const describeRequest = (req: FuzzRequest): string => {
  const body = req.body === undefined ? '' : ` body=${JSON.stringify(String(req.body).slice(0, 160))}${Buffer.byteLength(req.body) > 160 ? `…(${Buffer.byteLength(req.body)} B)` : ''}`;
  return `${req.method} ${req.path.slice(0, 160)}${body}`;
};

/** Sends `count` seeded requests with `concurrency` keep-alive connections and reports what went wrong. */
export async function runFuzz(target: FuzzTarget, options: { seed: number; count: number; concurrency?: number; timeoutMs?: number }): Promise<FuzzReport> {
  const random = seededRandom(options.seed);
  const requests = Array.from({ length: options.count }, () => generateRequest(random, target));
  const base = new URL(target.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency ?? 4 });
  const previousOnSocket = new Map<Socket, FuzzRequest>();
  const report: FuzzReport = { seed: options.seed, requests: 0, byClass: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 }, fiveXx: 0, nonJson: 0, dropped: 0, findings: [], ms: 0 };
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const req = requests[next++]!;
      const outcome = await send(agent, base, req, previousOnSocket, options.timeoutMs ?? 30_000);
      if (outcome.status === -1) continue;
      report.requests++;
      const traits = [...req.traits] as FuzzTrait[];
      if (outcome.afterHuge && !traits.includes('huge-body')) traits.push('huge-body');
      if (outcome.status === null || outcome.error !== null) {
        report.dropped++;
        const after = outcome.previous ? ` (after ${describeRequest(outcome.previous).slice(0, 200)} on this connection)` : '';
        report.findings.push({ kind: 'dropped', request: describeRequest(req), status: outcome.status, detail: `${outcome.error ?? ''}${after}`, traits });
        continue;
      }
      const cls = `${Math.floor(outcome.status / 100)}xx` as keyof FuzzReport['byClass'];
      if (cls in report.byClass) report.byClass[cls]++;
      if (outcome.status >= 500) {
        report.fiveXx++;
        report.findings.push({ kind: '5xx', request: describeRequest(req), status: outcome.status, detail: outcome.body.toString('utf8').slice(0, 200), traits });
      }
      if (!answersInJson(req, outcome)) {
        report.nonJson++;
        report.findings.push({
          kind: 'non-json',
          request: describeRequest(req),
          status: outcome.status,
          detail: `${outcome.headers['content-type'] ?? 'no content-type'}: ${outcome.body.toString('utf8').slice(0, 120)}`,
          traits,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  agent.destroy();
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** Every answer is JSON, except bodiless ones (HEAD, 204 preflights) and successful assets and streams. */
function answersInJson(req: FuzzRequest, outcome: Outcome): boolean {
  if (req.method === 'HEAD' || outcome.status === 204 || outcome.status === 304) return true;
  const type = String(outcome.headers['content-type'] ?? '');
  if (outcome.status! < 400 && (req.traits.has('asset') || type.startsWith('text/event-stream') || type.startsWith('text/html') || type.startsWith('text/javascript'))) {
    return true;
  }
  if (!/^application\/json/i.test(type)) return false;
  try {
    JSON.parse(outcome.body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** The one line a run prints. */
export function summaryLine(report: FuzzReport, store: string): string {
  const { byClass } = report;
  return (
    `fuzz seed=${report.seed} store=${store} requests=${report.requests} 2xx=${byClass['2xx']} 3xx=${byClass['3xx']} 4xx=${byClass['4xx']} ` +
    `5xx=${report.fiveXx} non-json=${report.nonJson} dropped=${report.dropped} ms=${report.ms}`
  );
}
