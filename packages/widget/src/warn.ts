/**
 * The SDK reports a host page's mistakes with `console.warn` and carries on: it never throws into the page that
 * embeds it. Every message starts with `[Svc]` so it can be found in a busy console.
 */
export function warn(message: string): void {
  console.warn(`[Svc] ${message}`);
}

/** A refused value: names the call and the property, says what was expected. */
export function ignored(where: string, property: string, expected: string): void {
  warn(`${where}: "${property}" ${expected}; ignored`);
}
