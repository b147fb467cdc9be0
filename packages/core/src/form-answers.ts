import type { FormDefinition, FormQuestion } from './domain.js';
import { SvcError } from './errors.js';

export type AnswerValue = string | number | boolean | string[] | null;

/** A validated answer, normalised (trimmed strings, numbers as numbers, datetimes in UTC). */
export interface NormalisedAnswer {
  question: FormQuestion;
  value: string | number | boolean | string[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ().-]{5,30}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
const LOCAL_DATETIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)(?:\.\d{1,3})?$/;
const OFFSET_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

function reject(question: FormQuestion, message: string): never {
  throw new SvcError('form_rejected', `${question.label}: ${message}`, { field: `answers.${question.id}` });
}

function isRealDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Offset of `timeZone` from UTC at the instant `utcMs`, in ms. */
function zoneOffsetMs(timeZone: string, utcMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** Reads a wall-clock datetime in `timeZone` as an instant (two passes settle DST edges). */
export function zonedToUtc(date: string, time: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm, ss = 0] = time.split(':').map(Number) as [number, number, number?];
  const wall = Date.UTC(y, m - 1, d, hh, mm, ss);
  let guess = wall - zoneOffsetMs(timeZone, wall);
  guess = wall - zoneOffsetMs(timeZone, guess);
  return new Date(guess);
}

function validateOne(question: FormQuestion, raw: AnswerValue | undefined, timeZone: string): NormalisedAnswer | null {
  const empty = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '') || (Array.isArray(raw) && raw.length === 0);
  if (empty) {
    if (question.required) reject(question, 'an answer is required');
    return null;
  }
  const text = (): string => {
    if (typeof raw !== 'string') reject(question, 'must be text');
    return raw.trim();
  };
  const inRange = (n: number): void => {
    if (question.min !== undefined && n < question.min) reject(question, `must be at least ${question.min}`);
    if (question.max !== undefined && n > question.max) reject(question, `must be at most ${question.max}`);
  };

  switch (question.kind) {
    case 'text':
    case 'textarea': {
      const value = text();
      const limit = question.kind === 'text' ? 500 : 4000;
      if ([...value].length > limit) reject(question, `must be at most ${limit} characters`);
      inRange([...value].length);
      return { question, value };
    }
    case 'email': {
      const value = text();
      if (!EMAIL.test(value) || value.length > 254) reject(question, 'must be an email address such as name@example.com');
      return { question, value };
    }
    case 'phone': {
      const value = text();
      if (!PHONE.test(value) || value.replace(/\D/g, '').length < 5) reject(question, 'must be a phone number such as +1 555 010 0199');
      return { question, value };
    }
    case 'number': {
      const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      if (!Number.isFinite(value)) reject(question, 'must be a number');
      inRange(value);
      return { question, value };
    }
    case 'boolean': {
      if (typeof raw !== 'boolean') reject(question, 'must be true or false');
      return { question, value: raw };
    }
    case 'select': {
      const value = text();
      if (!question.options?.includes(value)) reject(question, `must be one of: ${(question.options ?? []).join(', ')}`);
      return { question, value };
    }
    case 'multiselect': {
      if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) reject(question, 'must be a list of options');
      const unknown = raw.filter((v) => !question.options?.includes(v));
      if (unknown.length > 0) reject(question, `has options that are not offered: ${unknown.join(', ')}`);
      const value = [...new Set(raw)];
      inRange(value.length);
      return { question, value };
    }
    case 'date': {
      const value = text();
      if (!isRealDate(value)) reject(question, 'must be a date as YYYY-MM-DD');
      return { question, value };
    }
    case 'time': {
      const value = text();
      if (!TIME.test(value)) reject(question, 'must be a time as HH:MM (24-hour)');
      return { question, value };
    }
    case 'datetime': {
      const value = text();
      if (OFFSET_DATETIME.test(value)) {
        const instant = new Date(value);
        if (Number.isNaN(instant.getTime()) || !isRealDate(value.slice(0, 10))) reject(question, 'must be a valid date and time');
        return { question, value: instant.toISOString() };
      }
      const local = LOCAL_DATETIME.exec(value);
      if (!local || !isRealDate(local[1]!) || !TIME.test(local[2]!)) {
        reject(question, 'must be a date and time as YYYY-MM-DDTHH:MM');
      }
      // A wall-clock time without offset is read in the turn's time zone (request, else session, else widget).
      return { question, value: zonedToUtc(local[1]!, local[2]!, timeZone).toISOString() };
    }
  }
}

/**
 * Validates submitted answers against a form definition. Throws 400 `form_rejected` naming the first bad
 * question; answers to questions the form does not ask are rejected too, so typos are not silently dropped.
 */
export function validateAnswers(form: FormDefinition, answers: Record<string, AnswerValue>, timeZone: string): NormalisedAnswer[] {
  const known = new Set(form.questions.map((q) => q.id));
  for (const id of Object.keys(answers)) {
    if (!known.has(id)) {
      throw new SvcError('form_rejected', `Form ${form.id} has no question "${id}".`, { field: `answers.${id}` });
    }
  }
  const result: NormalisedAnswer[] = [];
  for (const question of form.questions) {
    const answer = validateOne(question, answers[question.id], timeZone);
    if (answer) result.push(answer);
  }
  return result;
}

/** The user history item for an accepted submission: readable by people and by the agent. */
export function renderAnswers(form: FormDefinition, answers: NormalisedAnswer[]): string {
  const lines = answers.map(({ question, value }) => {
    const shown = Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value);
    return `- ${question.label}: ${shown}`;
  });
  return [`Submitted form "${form.title}":`, ...lines].join('\n');
}
