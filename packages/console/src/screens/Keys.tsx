import { useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import type { ApiKey } from '../api/types.js';
import { ErrorNote, formatDate, Loading, SecretOnce, Title } from '../components/common.js';
import { useAction, useLoad } from '../hooks.js';

/** The scopes a server key may hold and the lifecycle events a webhook may receive (as `@svc/core` lists them). */
export const SCOPES = ['conversations:chat', 'identity:assert', 'knowledge:read', 'knowledge:write', 'admin'] as const;
export const WEBHOOK_EVENTS = ['session.created', 'session.resolved', 'session.expired', 'session.rated', 'session.handoff', 'message.feedback'] as const;

interface Shown {
  label: string;
  value: string;
}

function Checkboxes({ legend, values, chosen, onChange }: { legend: string; values: readonly string[]; chosen: string[]; onChange(next: string[]): void }) {
  return (
    <fieldset class="checks">
      <legend>{legend}</legend>
      {values.map((value) => (
        <label key={value} class="check">
          <input
            type="checkbox"
            checked={chosen.includes(value)}
            onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, value] : chosen.filter((item) => item !== value))}
          />
          <code>{value}</code>
        </label>
      ))}
    </fieldset>
  );
}

function KeyRow({ apiKey, onChanged, onSecret }: { apiKey: ApiKey; onChanged(): void; onSecret(shown: Shown): void }) {
  const revoke = useAction(async (keyId: string) => (await admin.revokeKey(keyId), true));
  const rotate = useAction(admin.rotateCallbackSecret);
  const label = apiKey.name || apiKey.prefix;
  const revoked = apiKey.revokedAt !== null;
  return (
    <tr>
      <td>
        <code>{apiKey.prefix}…</code> {apiKey.name && <span>{apiKey.name}</span>}
      </td>
      <td>{apiKey.kind}</td>
      <td>{apiKey.kind === 'public' ? (apiKey.allowedOrigins ?? []).join(', ') : apiKey.scopes.join(', ')}</td>
      <td>{revoked ? `Revoked ${formatDate(apiKey.revokedAt)}` : formatDate(apiKey.createdAt)}</td>
      <td class="row">
        {!revoked && apiKey.callbackUrl && (
          <button
            type="button"
            class="secondary"
            disabled={rotate.busy}
            onClick={async () => {
              const rotated = await rotate.run(apiKey.id);
              if (rotated) onSecret({ label: `Callback secret of ${label}`, value: rotated.callbackSecret });
            }}
          >
            Rotate callback secret<span class="sr-only"> of {label}</span>
          </button>
        )}
        {!revoked && (
          <button
            type="button"
            class="danger"
            disabled={revoke.busy}
            onClick={async () => {
              if (!confirm(`Revoke ${label}? Requests with it are refused from now on.`)) return;
              if (await revoke.run(apiKey.id)) onChanged();
            }}
          >
            Revoke<span class="sr-only"> {label}</span>
          </button>
        )}
        <ErrorNote error={revoke.error ?? rotate.error} />
      </td>
    </tr>
  );
}

function Keys({ onSecret }: { onSecret(shown: Shown): void }) {
  const keys = useLoad(() => admin.keys(), []);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['conversations:chat']);
  const [callbackUrl, setCallbackUrl] = useState('');
  const create = useAction(admin.createKey);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const created = await create.run({ ...(name.trim() ? { name: name.trim() } : {}), scopes, ...(callbackUrl.trim() ? { callbackUrl: callbackUrl.trim() } : {}) });
    if (!created) return;
    onSecret({ label: 'Server key', value: created.key });
    if (created.callbackSecret) onSecret({ label: 'Callback secret', value: created.callbackSecret });
    setName('');
    setCallbackUrl('');
    keys.reload();
  };
  return (
    <section class="stack" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <ErrorNote error={keys.error} />
      {keys.loading && !keys.data && <Loading what="keys" />}
      {keys.data && (
        <div class="table-scroll">
          <table>
            <caption class="sr-only">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Kind</th>
                <th scope="col">Scopes or origins</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.data.map((apiKey) => (
                <KeyRow key={apiKey.id} apiKey={apiKey} onChanged={keys.reload} onSecret={onSecret} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form class="stack card" onSubmit={submit}>
        <h3>New server key</h3>
        <label>
          Name (optional)
          <input value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <Checkboxes legend="Scopes" values={SCOPES} chosen={scopes} onChange={setScopes} />
        <label>
          Callback URL (optional: replies are delivered there, signed)
          <input type="url" value={callbackUrl} placeholder="https://example.com/svc-callback" onInput={(e) => setCallbackUrl(e.currentTarget.value)} />
        </label>
        <ErrorNote error={create.error} />
        <div class="row">
          <button type="submit" disabled={create.busy || scopes.length === 0}>
            Create server key
          </button>
        </div>
      </form>
    </section>
  );
}

function Webhooks({ onSecret }: { onSecret(shown: Shown): void }) {
  const hooks = useLoad(() => admin.webhooks(), []);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENTS]);
  const create = useAction(admin.createWebhook);
  const change = useAction(async (step: () => Promise<unknown>) => {
    const result = await step();
    hooks.reload();
    return result ?? true;
  });
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const created = await create.run({ url: url.trim(), events });
    if (!created) return;
    if (created.secret) onSecret({ label: 'Webhook secret', value: created.secret });
    setUrl('');
    hooks.reload();
  };
  return (
    <section class="stack" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <ErrorNote error={hooks.error ?? change.error} />
      {hooks.data && (
        <ul class="cards">
          {hooks.data.data.map((hook) => (
            <li key={hook.id}>
              <span>
                <code>{hook.url}</code>
                <span class="hint"> {hook.events.join(', ')}</span>
              </span>
              <span class="row">
                <button
                  type="button"
                  class="secondary"
                  onClick={async () => {
                    const rotated = (await change.run(() => admin.rotateWebhookSecret(hook.id))) as { secret?: string } | undefined;
                    if (rotated?.secret) onSecret({ label: `Webhook secret of ${hook.url}`, value: rotated.secret });
                  }}
                >
                  Rotate secret<span class="sr-only"> of {hook.url}</span>
                </button>
                <button
                  type="button"
                  class="danger"
                  onClick={() => confirm(`Delete the webhook to ${hook.url}?`) && change.run(() => admin.deleteWebhook(hook.id))}
                >
                  Delete<span class="sr-only"> webhook to {hook.url}</span>
                </button>
              </span>
            </li>
          ))}
          {hooks.data.data.length === 0 && <li class="hint">No webhooks.</li>}
        </ul>
      )}
      <form class="stack card" onSubmit={submit}>
        <h3>New webhook</h3>
        <label>
          Webhook URL
          <input type="url" required value={url} placeholder="https://example.com/svc-events" onInput={(e) => setUrl(e.currentTarget.value)} />
        </label>
        <Checkboxes legend="Events" values={WEBHOOK_EVENTS} chosen={events} onChange={setEvents} />
        <ErrorNote error={create.error} />
        <div class="row">
          <button type="submit" disabled={create.busy || events.length === 0}>
            Create webhook
          </button>
        </div>
      </form>
    </section>
  );
}

export function KeysScreen() {
  const [secrets, setSecrets] = useState<Shown[]>([]);
  const show = (shown: Shown): void => setSecrets((current) => [...current, shown]);
  return (
    <section>
      <Title title="Keys and webhooks">Keys and webhooks</Title>
      {secrets.length > 0 && (
        <div class="stack" aria-live="polite">
          {secrets.map((secret) => (
            <SecretOnce key={secret.value} label={secret.label} value={secret.value} />
          ))}
          <button type="button" class="secondary" onClick={() => setSecrets([])}>
            I have copied the secrets
          </button>
        </div>
      )}
      <Keys onSecret={show} />
      <Webhooks onSecret={show} />
    </section>
  );
}
