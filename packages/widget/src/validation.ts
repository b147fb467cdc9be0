import { ignored, warn } from './warn.js';

/** The reason a value is refused, or null when it is acceptable. */
export type Check = (value: unknown) => string | null | false;

/**
 * The valid properties of a host page's object argument. Each refused value, and each unknown property (usually a
 * typo), is reported with `console.warn` naming the property, and left out; nothing is thrown into the page.
 */
export function pick<T>(input: unknown, checks: Record<string, Check>, where: string): Partial<T> {
  const valid: Record<string, unknown> = {};
  if (input != null && (typeof input !== 'object' || Array.isArray(input))) warn(`${where} takes an object; ignored`);
  else {
    for (const [key, value] of Object.entries(input ?? {})) {
      const check = checks[key];
      const problem = check ? value !== undefined && check(value) : 'is not a known property';
      if (problem) ignored(where, key, problem);
      else if (value !== undefined) valid[key] = value;
    }
  }
  return valid as Partial<T>;
}

/** A number within bounds; NaN and infinities fail the comparisons. */
export const range =
  (min: number, max: number): Check =>
  (value) =>
    !(typeof value === 'number' && value >= min && value <= max) && `must be a number from ${min} to ${max}`;

/** A string of at most `max` UTF-16 units, as the server counts them. */
export const text =
  (max: number): Check =>
  (value) =>
    !(typeof value === 'string' && value.length <= max) && `must be a string of at most ${max} characters`;
