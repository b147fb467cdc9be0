import { useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import { ErrorNote, Loading, SecretOnce, Title } from '../components/common.js';
import { useAction, useLoad } from '../hooks.js';
import { href } from '../router.js';

export function WidgetList() {
  const widgets = useLoad(() => admin.widgets(), []);
  const [name, setName] = useState('');
  const create = useAction(admin.createWidget);
  const [created, setCreated] = useState<{ id: string; name: string; identitySecret?: string } | null>(null);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const widget = await create.run({ name: name.trim() });
    if (!widget) return;
    setName('');
    setCreated(widget);
    widgets.reload();
  };
  return (
    <section>
      <Title title="Widgets">Widgets</Title>
      {created && (
        <div class="stack" role="status">
          <p>
            Widget created: <a href={href('widgets', created.id)}>set up {created.name}</a>
          </p>
          {created.identitySecret && <SecretOnce label="Identity secret" value={created.identitySecret} />}
        </div>
      )}
      <ErrorNote error={widgets.error} />
      {widgets.loading && !widgets.data && <Loading what="widgets" />}
      {widgets.data && (
        <ul class="cards">
          {widgets.data.data.map((widget) => (
            <li key={widget.id}>
              <a href={href('widgets', widget.id)}>{widget.name}</a>
              <span class="hint">{widget.id}</span>
            </li>
          ))}
          {widgets.data.data.length === 0 && <li class="hint">No widgets yet.</li>}
        </ul>
      )}
      <form class="inline-form" onSubmit={submit}>
        <h2>New widget</h2>
        <label>
          Name
          <input required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={create.busy}>
          Create widget
        </button>
        <ErrorNote error={create.error} />
      </form>
    </section>
  );
}
