import { describe, expect, it } from 'vitest';
import { bestUnits, renderUnits, splitUnits } from './sentences.js';

const PASSAGE = `# Payments

We accept Visa and Mastercard. Klarna is available in the United States!
Cards are charged when the order ships.

- Apple Pay
- Google Pay

| Method | Fee |
|---|---|`;

describe('splitUnits', () => {
  it('drops the heading trail a store puts at the top of a passage', () => {
    const units = splitUnits('Shipping › Costs\n\nFree over $50.\n\n**Express**\n\nTwo days.');
    expect(units.map((unit) => unit.text)).toEqual(['Free over $50.', 'Two days.']);
  });

  it('splits prose into sentences and keeps list items apart, dropping headings and tables', () => {
    expect(splitUnits(PASSAGE).map((unit) => [unit.text, unit.listItem])).toEqual([
      ['We accept Visa and Mastercard.', false],
      ['Klarna is available in the United States!', false],
      ['Cards are charged when the order ships.', false],
      ['Apple Pay', true],
      ['Google Pay', true],
    ]);
  });
});

describe('bestUnits', () => {
  const units = splitUnits(PASSAGE);

  it('picks the units covering most terms, the best first', () => {
    const chosen = bestUnits(units, ['charged', 'order', 'visa'], 2);
    expect(chosen.map((unit) => unit.text)).toEqual(['Cards are charged when the order ships.', 'We accept Visa and Mastercard.']);
  });

  it('keeps the original order among equally good units', () => {
    const chosen = bestUnits(units, ['visa', 'klarna', 'cards', 'pay'], 4);
    expect(chosen.map((unit) => unit.position)).toEqual([0, 1, 2, 3]);
  });

  it('prefers a unit that keeps the question words together', () => {
    const [first] = bestUnits(splitUnits('We ship with DHL Express. Express shipping takes two days.'), ['express', 'shipping'], 2);
    expect(first?.text).toBe('Express shipping takes two days.');
  });

  it('opens the passage when no unit shares a term', () => {
    expect(bestUnits(units, ['bitcoin'], 3).map((unit) => unit.position)).toEqual([0, 1]);
  });
});

describe('renderUnits', () => {
  it('writes prose as a paragraph and list items as a list', () => {
    const [first, , , apple] = splitUnits(PASSAGE);
    expect(renderUnits([first!, apple!])).toBe('We accept Visa and Mastercard.\n\n- Apple Pay');
  });
});
