/**
 * One path segment from a caller's id. "." and ".." are refused: URL parsers resolve them (even
 * percent-encoded) as dot segments, so the request would reach another endpoint.
 */
export function segment(name: string, value: string): string {
  if (!value || value === '.' || value === '..') throw new TypeError(`${name} must be an id, got ${JSON.stringify(value)}`);
  return encodeURIComponent(value);
}

export function conversationsPath(widgetId: string): string {
  return `/widgets/${segment('widgetId', widgetId)}/conversations`;
}

export function sessionPath(widgetId: string, sessionId: string): string {
  return `${conversationsPath(widgetId)}/${segment('sessionId', sessionId)}`;
}

export function knowledgeBasePath(knowledgeBaseId: string): string {
  return `/knowledge-bases/${segment('knowledgeBaseId', knowledgeBaseId)}`;
}
