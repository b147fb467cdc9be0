import { Component, type VNode } from 'preact';
import type { AnswerValue, FormQuestion, SurfacedForm } from '../api-types.js';
import { checkAnswer, checkForm, toAnswers, type DraftValue } from '../form-validation.js';
import { type Strings, NO, SUBMIT, YES } from '../i18n.js';
import type { VisitorDetails } from '../identify-validation.js';
import { FormField } from './FormField.js';

export interface ChatFormProps {
  form: SurfacedForm;
  sent: boolean;
  /** Another turn runs: submitting now would be refused. */
  disabled: boolean;
  details: VisitorDetails;
  t: Strings;
  /** Resolves with problems by question id (`''` for the form as a whole), or null when accepted. */
  onSubmit(answers: Record<string, AnswerValue>, summary: string): Promise<Record<string, string> | null>;
}

/**
 * `identify()` details fill the questions that ask for them (spec 4.9: "pre-fills"): a question whose id is one of
 * the payload's properties (`name`, `email`, `phone`, `company`, `latitude`, `longitude`), and email or phone
 * questions by kind. The visitor can still change them.
 */
function prefill(questions: readonly FormQuestion[], details: VisitorDetails): Record<string, DraftValue> {
  const known = details as Record<string, unknown>;
  const draft: Record<string, DraftValue> = {};
  for (const { id, kind } of questions) {
    const value = known[id] ?? (kind === 'email' || kind === 'phone' ? details[kind] : undefined);
    if ((typeof value === 'string' || typeof value === 'number') && id !== 'identityToken' && id !== 'visitorId') draft[id] = String(value);
  }
  return draft;
}

/** The visitor's side of the conversation after sending: what they answered, readable. */
function summarize(form: SurfacedForm, answers: Record<string, AnswerValue>, t: Strings): string {
  const lines = form.questions
    .filter((question) => answers[question.id] !== undefined)
    .map((question) => {
      const value = answers[question.id]!;
      const shown = Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? t[YES] : t[NO]) : String(value);
      return `${question.label}: ${shown}`;
    });
  return [form.title, ...lines].join('\n');
}

let forms = 0;

interface ChatFormState {
  draft: Record<string, DraftValue>;
  errors: Record<string, string>;
  pending: boolean;
}

/**
 * A form surfaced by a reply (spec 4.3). A class component: its draft and problems are local UI state, and the
 * widget renders without the hooks runtime to stay within its size budget.
 */
export class ChatForm extends Component<ChatFormProps, ChatFormState> {
  override state: ChatFormState = { draft: prefill(this.props.form.questions, this.props.details), errors: {}, pending: false };
  private element: HTMLFormElement | null = null;

  /** Unique inside the shadow root, though the same form can appear in several replies. */
  private readonly ids = `svc-form${++forms}`;

  private fieldId(index: number): string {
    return `${this.ids}-${index}`;
  }

  /** Shows problems, and moves focus to the first question that has one. */
  private show(errors: Record<string, string>): void {
    const index = this.props.form.questions.findIndex((question) => errors[question.id]);
    // Once the problems are rendered, focus the first (a checkbox group's first box has `<id>-0`).
    this.setState({ errors }, () => {
      if (index >= 0) this.element?.querySelector<HTMLElement>(`#${this.fieldId(index)}, #${this.fieldId(index)}-0`)?.focus();
    });
  }

  private recheck(question: FormQuestion, value: DraftValue | undefined): void {
    const { [question.id]: _previous, ...errors } = this.state.errors;
    const problem = checkAnswer(question, value, this.props.t);
    this.setState({ errors: problem ? { ...errors, [question.id]: problem } : errors });
  }

  private submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const { form, t, disabled, onSubmit } = this.props;
    const { draft, pending } = this.state;
    if (pending || disabled) return;
    const problems = checkForm(form.questions, draft, t);
    if (Object.keys(problems).length > 0) return this.show(problems);
    const answers = toAnswers(form.questions, draft);
    this.setState({ errors: {}, pending: true });
    const rejected = await onSubmit(answers, summarize(form, answers, t));
    this.setState({ pending: false });
    if (rejected) {
      // A problem naming no question of this form is shown for the form as a whole.
      const shown: Record<string, string> = {};
      for (const [id, message] of Object.entries(rejected)) shown[form.questions.some((question) => question.id === id) ? id : ''] = message;
      this.show(shown);
    }
  };

  override render({ form, sent, disabled, t }: ChatFormProps, { draft, errors, pending }: ChatFormState): VNode {
    if (sent) {
      return (
        <p part="form-sent" class="hint" data-testid="svc-form-sent">
          {form.title} ✓
        </p>
      );
    }
    const title = `${this.ids}-title`;
    return (
      <form ref={(element) => void (this.element = element)} part="form" class="card form" data-testid="svc-form" noValidate aria-labelledby={title} onSubmit={this.submit}>
        <b id={title}>{form.title}</b>
        {form.questions.map((question, index) => (
          <FormField
            question={question}
            id={this.fieldId(index)}
            value={draft[question.id]}
            error={errors[question.id]}
            disabled={pending}
            t={t}
            onChange={(value) => {
              this.setState((current) => ({ draft: { ...current.draft, [question.id]: value } }));
              // Once a problem shows, it updates as the visitor types; before that, only on leaving the field.
              if (this.state.errors[question.id]) this.recheck(question, value);
            }}
            onBlur={() => {
              const value = this.state.draft[question.id];
              if (value !== undefined && value !== '') this.recheck(question, value);
            }}
          />
        ))}
        {errors[''] && (
          <p part="field-error" class="error" role="alert" data-testid="svc-form-error">
            {errors['']}
          </p>
        )}
        <button part="form-submit" class="brand" data-testid="svc-form-submit" disabled={pending || disabled}>
          {t[SUBMIT]}
        </button>
      </form>
    );
  }
}
