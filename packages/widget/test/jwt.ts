/** An unsigned test JWT: the widget only reads `sub` and `exp`, the signature is the server's business. */
export function testToken(sub: string, exp = Math.floor(Date.now() / 1000) + 3600): string {
  const encode = (value: unknown): string => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub, exp })}.signature`;
}
