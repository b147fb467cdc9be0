import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../testing/harness.js';

/** The value of one sample line of the Prometheus text format, or undefined when absent. */
function sample(metrics: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

describe('/readyz', () => {
  it('answers 200 while serving and 503 from the moment draining starts', async () => {
    const h = await createHarness();
    const ready = await h.get('/readyz', { key: null });
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', database: 'ok' });
    expect(ready.headers.get('cache-control')).toBe('no-store');

    h.runtime.operations.startDraining();
    const draining = await h.get('/readyz', { key: null });
    expect(draining.status).toBe(503);
    expect(draining.body).toEqual({ status: 'draining' });
    // Still answered (in-flight work finishes), but keep-alive clients are told to go elsewhere.
    const health = await h.get('/healthz', { key: null });
    expect(health.status).toBe(200);
    expect(health.headers.get('connection')).toBe('close');
  });

  it('answers 503 when the database is unreachable', async () => {
    const h = await createHarness();
    h.store.getAccount = () => Promise.reject(new Error('connection terminated'));
    const res = await h.get('/readyz', { key: null });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', database: 'unreachable' });
  });
});

describe('/metrics', () => {
  it('counts requests by route pattern and status, and turns with their agent latency', async () => {
    const h = await createHarness();
    const sessionId = await h.session();
    const sent = await h.post(`${h.base}/${sessionId}/messages`, { content: 'Do you ship to Canada?' });
    expect(sent.status).toBe(200);
    await h.get(`${h.base}/${sessionId}/messages`, { key: 'sk_live_wrong' });

    const res = await h.runtime.app.request('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const route = '/widgets/:widgetId/conversations/:sessionId/messages';
    expect(sample(text, 'svc_http_requests_total', { method: 'POST', route, status: '200' })).toBe(1);
    expect(sample(text, 'svc_http_requests_total', { method: 'GET', route, status: '401' })).toBe(1);
    expect(sample(text, 'svc_http_request_duration_seconds_count', { method: 'POST', route, status: '200' })).toBe(1);
    // Label values are route patterns, never the ids of a request: one series per route, not per session.
    expect(text).not.toContain(sessionId);
    expect(sample(text, 'svc_turns_total', { outcome: 'ok' })).toBe(1);
    expect(sample(text, 'svc_agent_latency_seconds_count', { outcome: 'ok' })).toBe(1);
    expect(sample(text, 'svc_turn_jobs', { status: 'queued' })).toBe(0);
    expect(sample(text, 'svc_callback_deliveries_pending')).toBe(0);
  });

  it('labels requests no route matched as one series', async () => {
    const h = await createHarness();
    await h.get('/no/such/path/123', { key: null });
    await h.get('/no/such/path/456', { key: null });
    const text = await (await h.runtime.app.request('/metrics')).text();
    expect(sample(text, 'svc_http_requests_total', { route: 'unmatched', status: '404' })).toBe(2);
  });
});

describe('compression', () => {
  it('sends /openapi.json with brotli or gzip as the client accepts, and plain otherwise', async () => {
    const h = await createHarness();
    const plain = await h.runtime.app.request('/openapi.json');
    const json = await plain.text();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toContain('Accept-Encoding');

    const br = await h.runtime.app.request('/openapi.json', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brotliDecompressSync(brBytes).toString()).toBe(json);
    expect(brBytes.length).toBeLessThan(json.length / 5);

    const gz = await h.runtime.app.request('/openapi.json', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(json);

    const refused = await h.runtime.app.request('/openapi.json', { headers: { 'Accept-Encoding': 'br;q=0, gzip;q=0' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
  });

  it('leaves small JSON bodies uncompressed', async () => {
    const h = await createHarness();
    const res = await h.runtime.app.request('/healthz', { headers: { 'Accept-Encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
