import { useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import type { Widget } from '../api/types.js';
import { CopyButton, ErrorNote } from '../components/common.js';
import { useAction } from '../hooks.js';

/** The tag a site pastes: the service's widget.js with the widget's public key, then the bubble. */
export const embedSnippet = (origin: string, key: string): string =>
  `<script async src="${origin}/widget.js" data-api-key="${key}" onload="Svc.bubble()"></script>`;

/** Origins, one per line or separated by commas or spaces; each must be a bare http(s) origin. */
export function parseOrigins(text: string): { origins: string[]; problem: string | null } {
  const origins = text.split(/[\s,]+/).filter(Boolean);
  for (const origin of origins) {
    let url: URL | null = null;
    try {
      url = new URL(origin);
    } catch {
      url = null;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/$/, '')) {
      return { origins, problem: `${origin} is not an origin such as https://shop.example.com (scheme, host and port only).` };
    }
  }
  return { origins: origins.map((origin) => origin.replace(/\/$/, '')), problem: origins.length ? null : 'Name at least one origin.' };
}

/** Creates a public key for the widget, allowed from the origins given, and shows the snippet with it. */
export function EmbedSection({ widget }: { widget: Widget }) {
  const [text, setText] = useState('');
  const [key, setKey] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const create = useAction(admin.createPublicKey);
  const { origins, problem } = parseOrigins(text);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    const created = await create.run({ widgetId: widget.id, origins });
    if (created) setKey(created.key);
  };
  const snippet = key ? embedSnippet(location.origin, key) : null;
  return (
    <section class="stack" aria-labelledby="embed-title">
      <h2 id="embed-title">Embed on a site</h2>
      <form onSubmit={submit} class="stack">
        <label for="embed-origins">Sites allowed to use the widget (origins, one per line)</label>
        <textarea
          id="embed-origins"
          rows={2}
          placeholder="https://shop.example.com"
          value={text}
          aria-invalid={touched && Boolean(problem)}
          aria-describedby="embed-problem"
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <div id="embed-problem">
          {touched && problem ? (
            <p class="error" role="alert">
              {problem}
            </p>
          ) : (
            <ErrorNote error={create.error} />
          )}
        </div>
        <div class="row">
          <button type="submit" disabled={create.busy}>
            Create public key and snippet
          </button>
        </div>
      </form>
      {snippet && (
        <div class="stack">
          <label for="embed-snippet">Paste this into every page of those sites, before &lt;/body&gt;</label>
          <textarea id="embed-snippet" class="code" rows={3} readOnly value={snippet} />
          <div class="row">
            <CopyButton text={snippet} label="Copy snippet" />
          </div>
        </div>
      )}
    </section>
  );
}
