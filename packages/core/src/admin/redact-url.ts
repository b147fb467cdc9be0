/**
 * The URL as listings may show it: user name and password masked. New URLs with credentials are refused, but a key
 * saved before that rule must not print its password in `keys list` or `deliveries list`.
 */
export function redactCredentials(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '***';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
