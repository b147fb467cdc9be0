/** Environment variables as `process.env` holds them; a plain object in tests. */
export type AiEnv = Readonly<Record<string, string | undefined>>;

/** Blank counts as unset: `SVC_AI_PROVIDER=` in a .env file means "not configured", not an invalid value. */
export function readVariable(env: AiEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * An http(s) URL, or an Error naming the variable with an example of a good value.
 *
 * @example
 * readHttpUrl({ name: 'SVC_AI_BASE_URL', value: 'localhost:11434/v1', example: 'http://localhost:11434/v1' }) // throws
 */
export function readHttpUrl(setting: { name: string; value: string; example: string }): string {
  const protocol = URL.canParse(setting.value) ? new URL(setting.value).protocol : null;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new Error(`${setting.name} must be an http(s) URL such as ${setting.example}; got ${JSON.stringify(setting.value)}.`);
  }
  return setting.value;
}
