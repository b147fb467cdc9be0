import { describe, expect, it } from 'vitest';
import { EVERY_KIND_FORM } from '../test/fake-service.js';
import type { FormQuestion } from './api-types.js';
import { checkAnswer, checkForm, toAnswers } from './form-validation.js';
import { stringsFor, DATE, DATETIME, EMAIL, NUMBER, OPTION, PHONE, REQUIRED, TIME } from './i18n.js';

const t = stringsFor('en');
const question = (id: string): FormQuestion => EVERY_KIND_FORM.questions.find((q) => q.id === id)!;

describe('client-side answer checks (mirroring packages/core/src/form-answers.ts)', () => {
  const cases: [string, string | string[], string | null][] = [
    ['name', 'Ada', null],
    ['name', '  ', t[REQUIRED]],
    ['name', 'x'.repeat(501), 'At most 500 characters.'],
    ['notes', '', null],
    ['notes', 'x'.repeat(21), 'At most 20 characters.'],
    ['email', 'ada@example.com', null],
    ['email', 'ada@example', t[EMAIL]],
    ['phone', '+1 555 010 0199', null],
    ['phone', '12', t[PHONE]],
    ['phone', 'call me', t[PHONE]],
    ['seats', '3', null],
    ['seats', '0', 'At least 1.'],
    ['seats', '51', 'At most 50.'],
    ['seats', 'many', t[NUMBER]],
    ['newsletter', 'yes', null],
    ['newsletter', 'no', null],
    ['newsletter', '', t[REQUIRED]],
    ['plan', 'Pro', null],
    ['plan', 'Enterprise', t[OPTION]],
    ['topics', ['Tents', 'Boots'], null],
    ['topics', ['Tents', 'Boots', 'Stoves'], 'At most 2.'],
    ['topics', ['Kayaks'], t[OPTION]],
    ['topics', [], null],
    ['day', '2026-02-28', null],
    ['day', '2026-02-30', t[DATE]],
    ['day', '28/02/2026', t[DATE]],
    ['hour', '09:30', null],
    ['hour', '24:00', t[TIME]],
    ['meeting', '2026-03-01T09:30', null],
    ['meeting', '2026-03-01 09:30', t[DATETIME]],
    ['meeting', '2026-13-01T09:30', t[DATETIME]],
  ];
  it.each(cases)('%s = %j → %s', (id, value, expected) => {
    expect(checkAnswer(question(id), value, t)).toBe(expected);
  });

  it('reports every problem of a form at once, keyed by question id', () => {
    expect(Object.keys(checkForm(EVERY_KIND_FORM.questions, {}, t))).toEqual(['name', 'email', 'seats', 'newsletter', 'plan']);
  });

  it('types the answers per kind and leaves unanswered optional questions out', () => {
    expect(
      toAnswers(EVERY_KIND_FORM.questions, {
        name: ' Ada ',
        email: 'ada@example.com',
        seats: '3',
        newsletter: 'no',
        plan: 'Pro',
        topics: ['Tents', 'Tents', 'Boots'],
        notes: '',
      }),
    ).toEqual({ name: 'Ada', email: 'ada@example.com', seats: 3, newsletter: false, plan: 'Pro', topics: ['Tents', 'Boots'] });
  });
});
