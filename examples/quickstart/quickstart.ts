/**
 * Quickstart: one conversation through the typed client.
 *
 *   BASE_URL=http://127.0.0.1:3000 SVC_API_KEY=sk_live_… SVC_WIDGET_ID=wgt_… pnpm start
 *
 * `pnpm start` at the repository root prints a key and a widget id to use.
 */
import { createClient, isSvcApiError } from '@svc/client';

function setting(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`Set ${name}: BASE_URL, SVC_API_KEY and SVC_WIDGET_ID tell the quickstart where and as whom to talk.`);
    process.exit(1);
  }
  return value;
}

const widgetId = setting('SVC_WIDGET_ID');
// A server key: it stays on servers and scripts like this one, never in a browser.
const client = createClient({ baseUrl: process.env.BASE_URL ?? 'http://127.0.0.1:3000', apiKey: setting('SVC_API_KEY') });

try {
  // A session belongs to a widget; visitorId is your label for the visitor, not a proof of who they are.
  const { data: session, meta } = await client.sessions.create(widgetId, { visitorId: 'quickstart-visitor', language: 'en' });
  console.log(`Session ${session.sessionId} created (${meta.creditsConsumed} credit).`);

  for (const content of ['Do you ship to Canada?', 'Which tents do you sell?']) {
    console.log(`> ${content}`);
    // An Idempotency-Key makes the send safe to retry: the client retries it on network errors and 502-504.
    const reply = await client.messages.send(widgetId, session.sessionId, { content }, { idempotencyKey: crypto.randomUUID() });
    if (reply.status === 200) {
      console.log(`< ${reply.data.content}`);
      const products = reply.data.products.map((product) => `${product.name} at ${product.price}`).join(', ') || 'no products';
      console.log(`  (${reply.meta.creditsConsumed} credits; ${products})`);
    } else {
      // 202: the AI took longer than the server's sync wait; the reply will appear in the history.
      console.log(`< (still thinking; the reply will be message ${reply.data.messageId})`);
    }
  }

  // iterate() follows pagination.cursor page after page; a small limit shows the paging at work.
  console.log('History:');
  for await (const item of client.messages.iterate(widgetId, session.sessionId, { limit: 2 })) {
    console.log(`  ${item.role}: ${item.content.split('\n')[0]}`);
  }

  const { data: ended } = await client.sessions.end(widgetId, session.sessionId);
  console.log(`Session ${ended.status} at ${ended.resolvedAt}.`);
  const { data: rated } = await client.sessions.rate(widgetId, session.sessionId, { rating: 'positive' });
  console.log(`Rated ${rated.rating}.`);
} catch (error) {
  // Every failure is a SvcApiError: an HTTP status and a code (or status 0 and network_error / timeout).
  if (!isSvcApiError(error)) throw error;
  const field = error.field ? ` (field ${error.field})` : '';
  console.error(`Request failed: ${error.status} ${error.code}${field}: ${error.message} [request id ${error.requestId ?? 'none'}]`);
  process.exitCode = 1;
}
