import type { VNode } from 'preact';
import type { FormQuestion } from '../api-types.js';
import type { DraftValue } from '../form-validation.js';
import { type Strings, CHOOSE, NO, YES } from '../i18n.js';

interface FieldProps {
  question: FormQuestion;
  /** Unique inside the shadow root: the same form can appear in several replies. */
  id: string;
  value: DraftValue | undefined;
  error: string | undefined;
  disabled: boolean;
  t: Strings;
  onChange(value: DraftValue): void;
  onBlur(): void;
}

/** One question: the control for its kind, its label, and its problem announced through aria-describedby. */
export function FormField({ question, id, value, error, disabled, t, onChange, onBlur }: FieldProps): VNode {
  const { kind, label } = question;
  const text = typeof value === 'string' ? value : '';
  const list = Array.isArray(value) ? value : [];
  const a11y = { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-e` : undefined };
  const title = [label, question.required && <span aria-hidden="true"> *</span>];
  const problem = error && (
    <p id={`${id}-e`} part="field-error" class="error" data-testid={`svc-error-${question.id}`}>
      {error}
    </p>
  );

  // A checkbox group is named by its legend; single controls by a label.
  if (kind === 'multiselect') {
    return (
      <fieldset part="field" class="field" data-testid={`svc-field-${question.id}`} {...a11y}>
        <legend>{title}</legend>
        {(question.options ?? []).map((option, index) => (
          <label class="choice">
            <input
              type="checkbox"
              id={`${id}-${index}`}
              disabled={disabled}
              checked={list.includes(option)}
              onChange={(event) => onChange(event.currentTarget.checked ? [...list, option] : list.filter((item) => item !== option))}
              onBlur={onBlur}
            />
            {option}
          </label>
        ))}
        {problem}
      </fieldset>
    );
  }
  // Yes/No is a select too: an explicit choice, so "required" means the visitor picked one.
  const options: [string, string][] =
    kind === 'boolean' ? [['yes', t[YES]], ['no', t[NO]]] : (question.options ?? []).map((option) => [option, option]);

  const props = {
    ...a11y,
    id,
    disabled,
    value: text,
    'aria-required': question.required,
    'data-testid': `svc-input-${question.id}`,
    onBlur,
    onInput: (event: { currentTarget: { value: string } }) => onChange(event.currentTarget.value),
  };
  return (
    <div part="field" class="field">
      <label for={id}>{title}</label>
      {kind === 'textarea' ? (
        <textarea {...props} rows={3} />
      ) : kind === 'select' || kind === 'boolean' ? (
        <select {...props}>
          <option value="">{t[CHOOSE]}</option>
          {options.map(([choice, name]) => (
            <option value={choice}>{name}</option>
          ))}
        </select>
      ) : (
        <input
          {...props}
          // text, email, number, date and time are input types of the same name.
          type={kind === 'phone' ? 'tel' : kind === 'datetime' ? 'datetime-local' : kind}
          step={kind === 'number' ? 'any' : undefined}
          min={kind === 'number' ? question.min : undefined}
          max={kind === 'number' ? question.max : undefined}
        />
      )}
      {problem}
    </div>
  );
}
