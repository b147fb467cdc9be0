/**
 * Locale facts for the system prompt, written in English because the prompt is: the model reads "Canadian
 * French" more reliably than `fr-CA`, and a spelled-out local time more reliably than an offset to apply.
 */

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' });

/**
 * The English name of a BCP 47 language, with the tag: `fr-CA` → `Canadian French (fr-CA)`. A tag Intl does
 * not know, or a malformed one, is given as it is; the model often still understands it.
 */
export function describeLanguage(tag: string): string {
  const trimmed = tag.trim();
  let name: string | undefined;
  try {
    name = LANGUAGE_NAMES.of(trimmed);
  } catch {
    // RangeError for a malformed tag: fall through to the tag itself.
  }
  return name === undefined || name === trimmed ? trimmed : `${name} (${trimmed})`;
}

const LOCAL_TIME_FIELDS: Intl.DateTimeFormatOptions = {
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'longOffset',
};

/**
 * `now` as a wall-clock reading in `timeZone`, with the zone's name:
 * `Wednesday, December 31, 2025 at 16:00 GMT-08:00 (America/Los_Angeles)`. The engine validates zones, but a
 * zone this runtime's ICU lacks must not fail a turn, so an unknown zone falls back to UTC and says so.
 */
export function describeLocalTime(now: Date, timeZone: string): string {
  try {
    const local = new Intl.DateTimeFormat('en-US', { ...LOCAL_TIME_FIELDS, timeZone }).format(now);
    return `${local} (${timeZone})`;
  } catch {
    const utc = new Intl.DateTimeFormat('en-US', { ...LOCAL_TIME_FIELDS, timeZone: 'UTC' }).format(now);
    return `${utc} (UTC; the zone "${timeZone}" is unknown to the server)`;
  }
}
