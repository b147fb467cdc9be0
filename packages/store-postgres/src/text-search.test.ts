import { describe, expect, it } from 'vitest';
import { orQuery, textSearchConfig } from './text-search.js';

const PG15 = new Set(['simple', 'english', 'french', 'german', 'spanish', 'norwegian']);

describe('textSearchConfig', () => {
  it('defaults to english and maps BCP 47 tags by their primary subtag', () => {
    expect(textSearchConfig(undefined, PG15)).toBe('english');
    expect(textSearchConfig('', PG15)).toBe('english');
    expect(textSearchConfig('fr-CA', PG15)).toBe('french');
    expect(textSearchConfig('DE', PG15)).toBe('german');
    expect(textSearchConfig('es_MX', PG15)).toBe('spanish');
    expect(textSearchConfig('nb-NO', PG15)).toBe('norwegian');
  });

  it('falls back to simple for languages without a configuration on this server', () => {
    expect(textSearchConfig('ja', PG15)).toBe('simple');
    expect(textSearchConfig('sr-Latn', PG15)).toBe('simple');
    expect(textSearchConfig('sr-Latn', new Set([...PG15, 'serbian']))).toBe('serbian');
  });
});

describe('orQuery', () => {
  it('ORs quoted lexemes', () => {
    expect(orQuery(['ship', 'canada'])).toBe("'ship' | 'canada'");
  });

  it('escapes quotes and backslashes so a lexeme is never read as syntax', () => {
    expect(orQuery(["o'neil", 'a\\b', '&!'])).toBe("'o''neil' | 'a\\\\b' | '&!'");
  });

  it('is null when there is nothing to search for', () => {
    expect(orQuery([])).toBeNull();
    expect(orQuery([''])).toBeNull();
  });
});
