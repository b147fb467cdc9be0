import {
  createWebhook,
  defaultIds,
  deleteWebhook,
  describeWebhook,
  listWebhooks,
  rotateWebhookSecret,
  systemClock,
  type Store,
  type WebhookAdminContext,
} from '@svc/core';
import { callbackUrlProblem } from '../workers/address-policy.js';

/**
 * `svc webhooks …`: the core operations with the server's ports and its address policy (the same as callback URLs':
 * https only and public addresses unless private callbacks are allowed; no credentials in the URL).
 */
function context(store: Store, allowPrivateCallbacks: boolean): WebhookAdminContext {
  return { store, clock: systemClock, ids: defaultIds, urlProblem: (url) => callbackUrlProblem(url, allowPrivateCallbacks) };
}

const csv = (value: string | undefined): string[] | undefined => (value === undefined ? undefined : value.split(','));

export async function runWebhookCommand(
  command: 'create' | 'list' | 'delete' | 'rotate-secret',
  input: { account?: string; url?: string; events?: string; id?: string; graceSeconds?: number },
  store: Store,
  allowPrivateCallbacks: boolean,
): Promise<{ json: unknown; text: string }> {
  const ctx = context(store, allowPrivateCallbacks);
  switch (command) {
    case 'create': {
      const { webhook, secret } = await createWebhook(ctx, { accountId: input.account!, url: input.url!, events: csv(input.events) });
      return {
        json: { id: webhook.id, url: webhook.url, events: webhook.events, secret },
        text: `Created webhook ${webhook.id} for ${webhook.events.join(', ')}\nSigning secret: ${secret}\nStore it now: it is not shown again.`,
      };
    }
    case 'list': {
      const webhooks = (await listWebhooks(ctx, input.account!)).map(describeWebhook);
      const text = webhooks.length ? webhooks.map((w) => `${w.id}  ${w.url}  ${w.events.join(',')}`).join('\n') : 'No webhooks.';
      return { json: webhooks, text };
    }
    case 'delete': {
      await deleteWebhook(ctx, input.id!);
      return { json: { id: input.id, deleted: true }, text: `Deleted webhook ${input.id}.` };
    }
    case 'rotate-secret': {
      const { webhook, secret } = await rotateWebhookSecret(ctx, input.id!, input.graceSeconds);
      const until = webhook.previousSecretExpiresAt;
      return {
        json: { id: webhook.id, secret, previousSecretValidUntil: until?.toISOString() ?? null },
        text:
          `New signing secret for ${webhook.id}: ${secret}\nStore it now: it is not shown again.\n` +
          (until ? `Until ${until.toISOString()} deliveries carry signatures with both secrets.` : 'The previous secret no longer signs.'),
      };
    }
  }
}
