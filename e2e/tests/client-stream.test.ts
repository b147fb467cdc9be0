import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2E } from '../support/setup.js';

/**
 * `@svc/client`'s streaming in a real browser: the package bundled for browsers as an app would (esbuild,
 * browser platform), run by a page of the site's origin against the service on another origin (real CORS), with
 * the widget's public key. Proves the SSE reader needs nothing but web APIs.
 */
const env = useE2E();

let bundle = '';
beforeAll(async () => {
  const result = await build({
    stdin: { contents: "export { createClient, isSvcApiError } from '@svc/client';", resolveDir: fileURLToPath(new URL('..', import.meta.url)), loader: 'ts' },
    bundle: true,
    format: 'iife',
    globalName: 'SvcClient',
    platform: 'browser',
    // From the package's sources: the packaging tests delete and rebuild dist/ while this project runs (the
    // bundle failed to resolve @svc/client in such a window); the published build is checked there.
    conditions: ['@svc/source'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  bundle = result.outputFiles[0]!.text;
});

/** The page: the bundled client, and a function running one streamed turn in a new session. */
function clientPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Client</title>
<script>${bundle}</script>
<script>
window.streamTurn = async (api, key, widgetId, content, sessionId) => {
  const client = SvcClient.createClient({ baseUrl: api, apiKey: key, retry: false });
  const id = sessionId ?? (await client.sessions.create(widgetId, { visitorId: 'browser-visitor' })).data.sessionId;
  try {
    const events = [];
    for await (const event of await client.messages.stream(widgetId, id, { content })) events.push(event);
    const history = (await client.messages.list(widgetId, id)).data;
    return { sessionId: id, events, history };
  } catch (error) {
    return { sessionId: id, error: { isSvcApiError: SvcClient.isSvcApiError(error), status: error.status, code: error.code } };
  }
};
</script></head><body><p>client</p></body></html>`;
}

describe('@svc/client messages.stream() in Chromium', () => {
  it('streams a reply from another origin with a public key: typed events in order, deltas adding up to the reply', async () => {
    const { page } = await env.visit(env.site.setPage('/client-stream.html', clientPage()));
    const { service } = env;

    const result = await page.evaluate(
      ([api, key, widgetId]) => (window as unknown as { streamTurn: (...args: unknown[]) => Promise<unknown> }).streamTurn(api, key, widgetId, 'Do you ship to Canada?'),
      [service.url, service.publicKey, service.widget.id],
    );

    const { events, history, sessionId } = result as {
      sessionId: string;
      events: Array<{ type: string; text?: string; messageId?: string; data?: { messageId: string; content: string } }>;
      history: Array<{ role: string; content: string; messageId: string }>;
    };
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('message.start');
    expect(types.at(-1)).toBe('message.completed');
    expect(types.slice(1, -1).every((type) => type === 'message.delta')).toBe(true);
    expect(types.length - 2).toBeGreaterThan(1);
    const completed = events.at(-1)!.data!;
    expect(events.filter((event) => event.type === 'message.delta').map((event) => event.text).join('')).toBe(completed.content);
    expect(completed.content).toMatch(/Canada/);
    expect(events[0]).toMatchObject({ messageId: completed.messageId, sessionId });
    expect(history.map((item) => [item.role, item.messageId === completed.messageId])).toEqual([
      ['user', false],
      ['assistant', true],
    ]);
  });

  it('rejects a refusal before acceptance with the SvcApiError, as the other calls do', async () => {
    const { page } = await env.visit(env.site.setPage('/client-stream-error.html', clientPage()));
    const { service } = env;

    const result = await page.evaluate(
      ([api, key, widgetId]) =>
        (window as unknown as { streamTurn: (...args: unknown[]) => Promise<unknown> }).streamTurn(api, key, widgetId, 'Hello', 'sess_nobody_created'),
      [service.url, service.publicKey, service.widget.id],
    );

    expect(result).toMatchObject({ error: { isSvcApiError: true, status: 404, code: 'session_not_found' } });
  });
});
