import { useEffect, useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import type { Theme, Widget } from '../api/types.js';
import { ErrorNote, Loading, SaveRow, SecretOnce, Title } from '../components/common.js';
import { useAction, useLoad } from '../hooks.js';
import { previewHash } from '../preview/settings.js';
import { href } from '../router.js';
import { EmbedSection } from './Embed.js';
import { FormsEditor } from './FormsEditor.js';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The theme form's fields: text values, where empty means "not set". */
const TEXT_FIELDS: { name: keyof Theme; label: string; type: string; hint?: string }[] = [
  { name: 'title', label: 'Title', type: 'text', hint: 'The header text; the widget’s name when empty.' },
  { name: 'subtitle', label: 'Subtitle', type: 'text' },
  { name: 'avatarUrl', label: 'Avatar URL', type: 'url' },
  { name: 'launcherIcon', label: 'Launcher icon URL', type: 'url' },
];

/** Drops unset values: the API's theme is strict and optional fields are left out, not empty. */
const cleanTheme = (theme: Theme): Theme =>
  Object.fromEntries(Object.entries(theme).filter(([, value]) => value !== undefined && value !== '')) as Theme;

function ThemeEditor({ widget, onSaved }: { widget: Widget; onSaved(widget: Widget): void }) {
  const [theme, setTheme] = useState<Theme>(widget.theme ?? {});
  const save = useAction(admin.setTheme);
  const [saved, setSaved] = useState('');
  const [previewed, setPreviewed] = useState(theme);
  const colourValid = !theme.primaryColor || HEX.test(theme.primaryColor);

  // The preview follows the edits after a short pause (not on every keystroke), with a valid colour only.
  useEffect(() => {
    const timer = setTimeout(() => colourValid && setPreviewed(cleanTheme(theme)), 250);
    return () => clearTimeout(timer);
  }, [JSON.stringify(theme)]);

  const set = (name: keyof Theme, value: string): void => {
    setSaved('');
    setTheme((current) => ({ ...current, [name]: value }));
  };
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const updated = await save.run(widget.id, cleanTheme(theme));
    if (updated) {
      setSaved('Theme saved.');
      onSaved(updated);
    }
  };
  const hash = previewHash({ widgetId: widget.id, name: widget.name, greeting: widget.greeting, language: widget.language, theme: previewed });

  return (
    <section class="theme" aria-labelledby="theme-title">
      <h2 id="theme-title">Theme</h2>
      <div class="split">
        <form onSubmit={submit} class="stack">
          <label>
            Brand colour
            <span class="row">
              <input
                type="color"
                aria-label="Brand colour picker"
                value={colourValid && theme.primaryColor ? theme.primaryColor : '#6366f1'}
                onInput={(e) => set('primaryColor', e.currentTarget.value)}
              />
              <input
                type="text"
                name="primaryColor"
                placeholder="#6366f1"
                value={theme.primaryColor ?? ''}
                aria-invalid={!colourValid}
                aria-describedby="colour-hint"
                onInput={(e) => set('primaryColor', e.currentTarget.value.trim())}
              />
            </span>
          </label>
          <p id="colour-hint" class={colourValid ? 'hint' : 'error'}>
            A 6-digit hex colour such as #6366f1.
          </p>
          {TEXT_FIELDS.map((field) => (
            <label key={field.name}>
              {field.label}
              <input type={field.type} name={field.name} value={(theme[field.name] as string | undefined) ?? ''} onInput={(e) => set(field.name, e.currentTarget.value)} />
              {field.hint && <span class="hint">{field.hint}</span>}
            </label>
          ))}
          <label>
            Dark mode
            <select value={theme.darkMode ?? ''} onChange={(e) => set('darkMode', e.currentTarget.value)}>
              <option value="">Light (default)</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
              <option value="auto">Follow the visitor’s setting</option>
            </select>
          </label>
          <label>
            Launcher position
            <select value={theme.position ?? ''} onChange={(e) => set('position', e.currentTarget.value)}>
              <option value="">Bottom right (default)</option>
              <option value="bottom-right">Bottom right</option>
              <option value="bottom-left">Bottom left</option>
            </select>
          </label>
          <ErrorNote error={save.error} />
          <SaveRow label="Save theme" disabled={save.busy || !colourValid} saved={saved} />
        </form>
        <div class="preview-frame">
          <iframe title="Live preview of the widget" src={`/console/preview.html${hash}`} />
        </div>
      </div>
    </section>
  );
}

function Settings({ widget, onSaved }: { widget: Widget; onSaved(widget: Widget): void }) {
  const [name, setName] = useState(widget.name);
  const [greeting, setGreeting] = useState(widget.greeting ?? '');
  const [language, setLanguage] = useState(widget.language ?? 'en');
  const [threshold, setThreshold] = useState(String(widget.confidenceThreshold ?? ''));
  const save = useAction(admin.updateWidget);
  const [saved, setSaved] = useState('');
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const confidence = threshold.trim() === '' ? {} : { confidenceThreshold: Number(threshold) };
    const updated = await save.run(widget.id, { name: name.trim(), greeting, language, ...confidence });
    if (updated) {
      setSaved('Settings saved.');
      onSaved(updated);
    }
  };
  return (
    <form onSubmit={submit} class="stack" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <label>
        Name
        <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Greeting
        <textarea rows={2} value={greeting} onInput={(e) => setGreeting(e.currentTarget.value)} />
      </label>
      <label>
        Language
        <input value={language} onInput={(e) => setLanguage(e.currentTarget.value)} />
      </label>
      <label>
        Answer only when at least this confident (0-1)
        <input
          type="number"
          min={0}
          max={1}
          step="any"
          value={threshold}
          aria-describedby="threshold-hint"
          onInput={(e) => setThreshold(e.currentTarget.value)}
        />
        <span id="threshold-hint" class="hint">
          Below it the assistant says it does not know and offers the closest articles and a person, rather than guess.
        </span>
      </label>
      <ErrorNote error={save.error} />
      <SaveRow label="Save settings" disabled={save.busy} saved={saved} />
    </form>
  );
}

/** A new identity secret for the site's server to sign visitors' tokens with; shown once. */
function IdentitySecret({ widget }: { widget: Widget }) {
  const rotate = useAction(admin.rotateIdentitySecret);
  const [secret, setSecret] = useState<string | null>(null);
  const run = async (): Promise<void> => {
    if (!confirm('Issue a new identity secret? Tokens signed with the old one stop working.')) return;
    const rotated = await rotate.run(widget.id);
    if (rotated) setSecret(rotated.identitySecret);
  };
  return (
    <div class="stack">
      <h3>Signed-in visitors</h3>
      <p class="hint">Your server signs visitors' identity tokens with the widget's identity secret.</p>
      <div class="row">
        <button type="button" class="secondary" disabled={rotate.busy} onClick={run}>
          New identity secret
        </button>
      </div>
      <ErrorNote error={rotate.error} />
      {secret && <SecretOnce label="Identity secret" value={secret} />}
    </div>
  );
}

function KnowledgeAttachments({ widget, onSaved }: { widget: Widget; onSaved(widget: Widget): void }) {
  const bases = useLoad(() => admin.knowledgeBases(), []);
  const save = useAction(admin.updateWidget);
  const [saved, setSaved] = useState('');
  const toggle = async (id: string, on: boolean): Promise<void> => {
    const ids = on ? [...widget.knowledgeBaseIds, id] : widget.knowledgeBaseIds.filter((kb) => kb !== id);
    const updated = await save.run(widget.id, { knowledgeBaseIds: ids });
    if (updated) {
      setSaved('Knowledge bases saved.');
      onSaved(updated);
    }
  };
  return (
    <fieldset class="stack">
      <legend>Knowledge bases the assistant answers from</legend>
      <ErrorNote error={bases.error ?? save.error} />
      {bases.data?.data.map((kb) => (
        <label key={kb.id} class="check">
          <input type="checkbox" checked={widget.knowledgeBaseIds.includes(kb.id)} disabled={save.busy} onChange={(e) => toggle(kb.id, e.currentTarget.checked)} />
          {kb.name}
        </label>
      ))}
      {bases.data?.data.length === 0 && (
        <p class="hint">
          No knowledge bases yet: <a href={href('knowledge')}>create one</a>.
        </p>
      )}
      <span role="status" class="hint">
        {saved}
      </span>
    </fieldset>
  );
}

export function WidgetEditor({ widgetId }: { widgetId: string }) {
  const loaded = useLoad(() => admin.widget(widgetId), [widgetId]);
  const widget = loaded.data;
  const onSaved = (updated: Widget): void => loaded.set(() => updated);
  return (
    <section>
      <p class="row">
        <a href={href('widgets')}>← All widgets</a>
        <a href={href('widgets', widgetId, 'evals')}>Evals: test this widget's answers</a>
      </p>
      <Title title="Widget">{widget ? `Widget: ${widget.name}` : 'Widget'}</Title>
      <ErrorNote error={loaded.error} />
      {!widget && loaded.loading && <Loading what="the widget" />}
      {widget && (
        <>
          <ThemeEditor widget={widget} onSaved={onSaved} />
          <div class="split">
            <Settings widget={widget} onSaved={onSaved} />
            <KnowledgeAttachments widget={widget} onSaved={onSaved} />
          </div>
          <IdentitySecret widget={widget} />
          <FormsEditor widget={widget} onSaved={onSaved} />
          <EmbedSection widget={widget} />
        </>
      )}
    </section>
  );
}
