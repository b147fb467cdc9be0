import { describe, expect, it } from 'vitest';
import type { FormDefinition } from './domain.js';
import { isSvcError } from './errors.js';
import { renderAnswers, validateAnswers, zonedToUtc, type AnswerValue } from './form-answers.js';

const form: FormDefinition = {
  id: 'f',
  title: 'Booking',
  questions: [
    { id: 'name', label: 'Name', kind: 'text', required: true },
    { id: 'email', label: 'Email', kind: 'email', required: false },
    { id: 'guests', label: 'Guests', kind: 'number', required: false, min: 1, max: 8 },
    { id: 'when', label: 'When', kind: 'datetime', required: false },
    { id: 'room', label: 'Room', kind: 'select', required: false, options: ['single', 'double'] },
    { id: 'extras', label: 'Extras', kind: 'multiselect', required: false, options: ['breakfast', 'parking'] },
    { id: 'day', label: 'Day', kind: 'date', required: false },
    { id: 'time', label: 'Time', kind: 'time', required: false },
    { id: 'pets', label: 'Pets', kind: 'boolean', required: false },
    { id: 'phone', label: 'Phone', kind: 'phone', required: false },
    { id: 'notes', label: 'Notes', kind: 'textarea', required: false },
  ],
};

function rejection(answers: Record<string, AnswerValue>): string | undefined {
  try {
    validateAnswers(form, answers, 'Europe/Paris');
  } catch (error) {
    if (isSvcError(error) && error.code === 'form_rejected') return error.field;
    throw error;
  }
  return undefined;
}

describe('form answers', () => {
  it('accepts valid answers of every kind and normalises them', () => {
    const answers = validateAnswers(
      form,
      {
        name: ' Ada ',
        email: 'ada@example.com',
        guests: '2',
        when: '2026-07-01T18:30',
        room: 'double',
        extras: ['parking', 'parking'],
        day: '2026-02-28',
        time: '09:15',
        pets: false,
        phone: '+33 1 23 45 67 89',
        notes: 'Line one\nLine two',
      },
      'Europe/Paris',
    );
    const byId = Object.fromEntries(answers.map((a) => [a.question.id, a.value]));
    expect(byId).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      guests: 2,
      when: '2026-07-01T16:30:00.000Z',
      room: 'double',
      extras: ['parking'],
      day: '2026-02-28',
      time: '09:15',
      pets: false,
      phone: '+33 1 23 45 67 89',
      notes: 'Line one\nLine two',
    });
    expect(renderAnswers(form, answers)).toContain('- Pets: No');
  });

  it.each([
    [{}, 'answers.name'],
    [{ name: '  ' }, 'answers.name'],
    [{ name: 'A', email: 'nope' }, 'answers.email'],
    [{ name: 'A', guests: 9 }, 'answers.guests'],
    [{ name: 'A', guests: 'many' }, 'answers.guests'],
    [{ name: 'A', when: 'tomorrow' }, 'answers.when'],
    [{ name: 'A', room: 'suite' }, 'answers.room'],
    [{ name: 'A', extras: ['spa'] }, 'answers.extras'],
    [{ name: 'A', day: '2026-02-30' }, 'answers.day'],
    [{ name: 'A', time: '25:00' }, 'answers.time'],
    [{ name: 'A', pets: 'yes' }, 'answers.pets'],
    [{ name: 'A', phone: 'call me' }, 'answers.phone'],
    [{ name: 'A', notes: 'x'.repeat(4001) }, 'answers.notes'],
    [{ name: 'A', notes: 42 }, 'answers.notes'],
    [{ name: 'A', surprise: 'x' }, 'answers.surprise'],
  ])('rejects %j naming %s', (answers, field) => {
    expect(rejection(answers as Record<string, AnswerValue>)).toBe(field);
  });

  it('reads wall-clock datetimes in the given zone, across DST', () => {
    expect(zonedToUtc('2026-01-15', '12:00', 'America/New_York').toISOString()).toBe('2026-01-15T17:00:00.000Z');
    expect(zonedToUtc('2026-07-15', '12:00', 'America/New_York').toISOString()).toBe('2026-07-15T16:00:00.000Z');
    expect(zonedToUtc('2026-07-15', '12:00', 'UTC').toISOString()).toBe('2026-07-15T12:00:00.000Z');
  });
});
