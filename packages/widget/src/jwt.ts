/** The two claims the widget reads from an identity token. */
export interface TokenClaims {
  sub: string;
  /** Expiry in seconds since the epoch; null when the token carries none. */
  exp: number | null;
}

/**
 * Reads `sub` and `exp` from a JWT's payload. The widget never verifies the signature: it has no secret, and the
 * server verifies every token it receives. Returns null for anything that is not a readable JWT.
 */
export function readTokenClaims(token: string): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || token.length > 8192) return null;
  try {
    // atob accepts base64 without its padding; base64url only differs by two characters.
    const binary = atob(parts[1]!.replace(/-/g, '+').replace(/_/g, '/'));
    const json = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const payload = JSON.parse(json) as { sub?: unknown; exp?: unknown };
    if (typeof payload.sub !== 'string' || payload.sub === '') return null;
    return { sub: payload.sub, exp: typeof payload.exp === 'number' && Number.isFinite(payload.exp) ? payload.exp : null };
  } catch {
    return null;
  }
}
