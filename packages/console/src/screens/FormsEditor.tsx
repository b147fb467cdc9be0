import { useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import type { Widget } from '../api/types.js';
import { ErrorNote, SaveRow } from '../components/common.js';
import { useAction } from '../hooks.js';

/**
 * Why JSON.parse refused the text, with "line L, column C" when the engine gave a character position (Firefox and
 * newer V8 do); otherwise the engine's message, which quotes the text around the problem.
 */
export function jsonProblem(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message)?.[1];
    if (/line \d+ column \d+/.test(message)) return `Not valid JSON: ${message}`;
    if (position === undefined) return `Not valid JSON: ${message}`;
    const before = text.slice(0, Number(position)).split('\n');
    return `Not valid JSON at line ${before.length}, column ${before.at(-1)!.length + 1}: ${message}`;
  }
}

/**
 * The widget's forms as JSON, the format of `svc widgets set-forms`. The service validates them (its messages name
 * the offending field, such as `forms.0.questions.1.kind`); the editor only checks that the text is JSON first.
 */
export function FormsEditor({ widget, onSaved }: { widget: Widget; onSaved(widget: Widget): void }) {
  const [text, setText] = useState(() => JSON.stringify(widget.forms ?? [], null, 2));
  const [saved, setSaved] = useState('');
  const save = useAction(admin.setForms);
  const problem = jsonProblem(text);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (problem) return;
    const updated = await save.run(widget.id, JSON.parse(text));
    if (updated) {
      setSaved('Forms saved.');
      onSaved(updated);
    }
  };
  return (
    <form onSubmit={submit} class="stack" aria-labelledby="forms-title">
      <h2 id="forms-title">Forms</h2>
      <label for="forms-json">Form definitions (JSON: an array of forms with id, title, triggers and questions)</label>
      <textarea
        id="forms-json"
        class="code"
        rows={12}
        spellcheck={false}
        value={text}
        aria-invalid={Boolean(problem || save.error)}
        aria-describedby="forms-problem"
        onInput={(e) => {
          setSaved('');
          save.clear();
          setText(e.currentTarget.value);
        }}
      />
      <div id="forms-problem">
        {problem ? (
          <p class="error" role="alert">
            {problem}
          </p>
        ) : (
          <ErrorNote error={save.error} />
        )}
      </div>
      <SaveRow label="Save forms" disabled={save.busy || Boolean(problem)} saved={saved} />
    </form>
  );
}
