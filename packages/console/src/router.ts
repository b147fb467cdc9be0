/**
 * Hash routes (`#/conversations/…`): the server serves one document at `/console/`, and a reload or a shared link
 * opens the same screen.
 */
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { screen: 'inbox' }
  | { screen: 'conversation'; widgetId: string; sessionId: string }
  | { screen: 'widgets' }
  | { screen: 'widget'; widgetId: string }
  | { screen: 'evals'; widgetId: string }
  | { screen: 'knowledge' }
  | { screen: 'knowledgeBase'; kbId: string }
  | { screen: 'keys' }
  | { screen: 'analytics' }
  | { screen: 'questions' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [head, a, b] = parts;
  if (head === 'conversations' && a && b) return { screen: 'conversation', widgetId: a, sessionId: b };
  if (head === 'widgets' && a && b === 'evals') return { screen: 'evals', widgetId: a };
  if (head === 'widgets') return a ? { screen: 'widget', widgetId: a } : { screen: 'widgets' };
  if (head === 'knowledge') return a ? { screen: 'knowledgeBase', kbId: a } : { screen: 'knowledge' };
  if (head === 'keys') return { screen: 'keys' };
  if (head === 'analytics') return { screen: 'analytics' };
  if (head === 'questions') return { screen: 'questions' };
  return { screen: 'inbox' };
}

export const href = (...parts: string[]): string => `#/${parts.map(encodeURIComponent).join('/')}`;

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = (): void => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}
