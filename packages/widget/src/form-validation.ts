import type { AnswerValue, FormQuestion } from './api-types.js';
import { fill, type Strings, DATE, DATETIME, EMAIL, MAX, MAX_LENGTH, MIN, MIN_LENGTH, NUMBER, OPTION, PHONE, REQUIRED, TIME } from './i18n.js';

/**
 * Client-side checks mirroring the server's (`packages/core/src/form-answers.ts`), so the visitor sees a problem on
 * the question at once instead of after a round trip. The server stays the authority: its `form_rejected` answer
 * is shown on the question it names.
 */

/** What a form control holds: text for most kinds, `'yes' | 'no' | ''` for boolean, a list for multiselect. */
export type DraftValue = string | string[];

const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_FORMAT = /^\+?[0-9 ().-]{5,30}$/;
const DATE_FORMAT = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_FORMAT = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
const LOCAL_DATETIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)(?:\.\d{1,3})?$/;

const TEXT_LIMIT: Partial<Record<FormQuestion['kind'], number>> = { text: 500, textarea: 4000 };

function isRealDate(value: string): boolean {
  const match = DATE_FORMAT.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function isEmpty(value: DraftValue | undefined): boolean {
  return value === undefined || (Array.isArray(value) ? value.length === 0 : value.trim() === '');
}

function rangeError(n: number, question: FormQuestion, low: string, high: string): string | null {
  if (question.min !== undefined && n < question.min) return fill(low, question.min);
  if (question.max !== undefined && n > question.max) return fill(high, question.max);
  return null;
}

/** The message to show under a question, or null when the answer is acceptable. */
export function checkAnswer(question: FormQuestion, value: DraftValue | undefined, t: Strings): string | null {
  if (isEmpty(value)) return question.required ? t[REQUIRED] : null;
  const list = Array.isArray(value) ? value : [];
  const text = Array.isArray(value) ? '' : value!.trim();
  const options = question.options ?? [];
  switch (question.kind) {
    case 'text':
    case 'textarea': {
      const length = [...text].length;
      if (length > TEXT_LIMIT[question.kind]!) return fill(t[MAX_LENGTH], TEXT_LIMIT[question.kind]!);
      return rangeError(length, question, t[MIN_LENGTH], t[MAX_LENGTH]);
    }
    case 'email':
      return EMAIL_FORMAT.test(text) && text.length <= 254 ? null : t[EMAIL];
    case 'phone':
      return PHONE_FORMAT.test(text) && text.replace(/\D/g, '').length >= 5 ? null : t[PHONE];
    case 'number': {
      const n = Number(text);
      return Number.isFinite(n) ? rangeError(n, question, t[MIN], t[MAX]) : t[NUMBER];
    }
    case 'boolean':
      return text === 'yes' || text === 'no' ? null : t[REQUIRED];
    case 'select':
      return options.includes(text) ? null : t[OPTION];
    case 'multiselect':
      if (list.some((option) => !options.includes(option))) return t[OPTION];
      return rangeError(new Set(list).size, question, t[MIN], t[MAX]);
    case 'date':
      return isRealDate(text) ? null : t[DATE];
    case 'time':
      return TIME_FORMAT.test(text) ? null : t[TIME];
    case 'datetime': {
      const match = LOCAL_DATETIME.exec(text);
      return match && isRealDate(match[1]!) && TIME_FORMAT.test(match[2]!) ? null : t[DATETIME];
    }
  }
}

/** Every question's problem, keyed by question id; empty when the form can be sent. */
export function checkForm(questions: readonly FormQuestion[], draft: Record<string, DraftValue>, t: Strings): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const question of questions) {
    const error = checkAnswer(question, draft[question.id], t);
    if (error) errors[question.id] = error;
  }
  return errors;
}

/** The `answers` object for the submission: typed per kind, unanswered optional questions left out. */
export function toAnswers(questions: readonly FormQuestion[], draft: Record<string, DraftValue>): Record<string, AnswerValue> {
  const answers: Record<string, AnswerValue> = {};
  for (const question of questions) {
    const value = draft[question.id];
    if (value === undefined || isEmpty(value)) continue;
    if (Array.isArray(value)) answers[question.id] = [...new Set(value)];
    else if (question.kind === 'number') answers[question.id] = Number(value.trim());
    else if (question.kind === 'boolean') answers[question.id] = value === 'yes';
    else answers[question.id] = value.trim();
  }
  return answers;
}
