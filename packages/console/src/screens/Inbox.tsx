import { SESSION_EVENT } from '@svc/core/event-stream';
import { plainText } from '@svc/widget/markdown';
import { useEffect, useRef, useState } from 'preact/hooks';
import { admin, type ConversationFilters } from '../api/admin.js';
import { followEvents } from '../api/events.js';
import type { Conversation } from '../api/types.js';
import { ErrorNote, formatDate, Loading, Title } from '../components/common.js';
import { useLoad } from '../hooks.js';
import { href } from '../router.js';

/** A reply's preview reads as text: its Markdown (emphasis, link targets) shown as in the conversation, unmarked. */
const preview = (message: NonNullable<Conversation['lastMessage']>): string =>
  message.role === 'assistant' ? plainText(message.content) : message.content;

/** `from`/`to` are calendar days in the form; the API takes instants: the start of `from`, the end of `to` (UTC). */
function toQuery(filters: ConversationFilters): ConversationFilters {
  return {
    ...filters,
    from: filters.from ? `${filters.from}T00:00:00.000Z` : undefined,
    to: filters.to ? `${filters.to}T23:59:59.999Z` : undefined,
  } as ConversationFilters;
}

/** Whether a conversation belongs in the list the filters describe (for one that arrives live). */
export function matches(conversation: Conversation, filters: ConversationFilters): boolean {
  const handoff = conversation.handoff?.state ?? 'none';
  return (
    (!filters.widgetId || conversation.widgetId === filters.widgetId) &&
    (!filters.status || conversation.status === filters.status) &&
    (!filters.handoff || handoff === filters.handoff) &&
    (!filters.rating || conversation.rating === filters.rating) &&
    (!filters.from || conversation.createdAt >= `${filters.from}T00:00:00.000Z`) &&
    (!filters.to || conversation.createdAt <= `${filters.to}T23:59:59.999Z`)
  );
}

export function HandoffBadge({ conversation }: { conversation: Conversation }) {
  const handoff = conversation.handoff;
  if (!handoff) return null;
  return handoff.state === 'requested' ? (
    <span class="badge warn">Wants a person</span>
  ) : (
    <span class="badge">With {handoff.operator?.name ?? 'an operator'}</span>
  );
}

const SELECTS: { name: keyof ConversationFilters; label: string; options: [string, string][] }[] = [
  { name: 'status', label: 'Status', options: [['', 'Any'], ['active', 'Active'], ['resolved', 'Resolved'], ['expired', 'Expired']] },
  { name: 'handoff', label: 'Handoff', options: [['', 'Any'], ['requested', 'Requested'], ['active', 'With an operator'], ['none', 'None']] },
  { name: 'rating', label: 'Rating', options: [['', 'Any'], ['positive', 'Positive'], ['negative', 'Negative']] },
];

export function Inbox() {
  const [filters, setFilters] = useState<ConversationFilters>({});
  const list = useLoad(() => admin.conversations(toQuery(filters)), [JSON.stringify(filters)]);
  const widgets = useLoad(() => admin.widgets().then((page) => page.data), []);
  const [live, setLive] = useState(false);
  // Until the feed first opens it is connecting, not reconnecting: nothing has failed yet.
  const [connected, setConnected] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [more, setMore] = useState<{ items: Conversation[]; cursor: string | null } | null>(null);
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  useEffect(() => setMore(null), [list.data]);

  useEffect(() => {
    const feed = followEvents({
      onStatus(open) {
        setLive(open);
        if (open) setConnected(true);
      },
      onEvent(event) {
        const data = event.data ?? {};
        const sessionId: string | undefined = data.sessionId;
        if (!sessionId) return;
        if (event.type === SESSION_EVENT.sessionUpdated) {
          const updated = data as Conversation;
          list.set((page) => {
            if (!page) return page;
            const known = page.data.some((item) => item.sessionId === sessionId);
            if (known) return { ...page, data: page.data.map((item) => (item.sessionId === sessionId ? { ...item, ...updated } : item)) };
            if (!matches(updated, filtersRef.current)) return page;
            setAnnouncement(`New conversation ${sessionId}`);
            return { ...page, data: [updated, ...page.data] };
          });
        } else if (event.type === SESSION_EVENT.messageCreated) {
          const lastMessage = { role: data.role, content: data.content, createdAt: data.createdAt };
          let known = false;
          list.set((page) => {
            if (!page) return page;
            known = page.data.some((item) => item.sessionId === sessionId);
            return { ...page, data: page.data.map((item) => (item.sessionId === sessionId ? { ...item, lastMessage, messageCount: item.messageCount + 1 } : item)) };
          });
          // A message of a conversation not listed yet: the list is read again, with it in its place.
          if (!known) list.reload();
        }
      },
    });
    return () => feed.stop();
  }, []);

  const widgetName = (id: string): string => widgets.data?.find((widget) => widget.id === id)?.name ?? id;
  const items = [...(list.data?.data ?? []), ...(more?.items ?? [])];
  const cursor = more ? more.cursor : list.data?.nextCursor ?? null;
  const loadMore = async (): Promise<void> => {
    if (!cursor) return;
    const page = await admin.conversations(toQuery(filters), cursor);
    setMore({ items: [...(more?.items ?? []), ...page.data], cursor: page.nextCursor });
  };
  const set = (name: keyof ConversationFilters, value: string): void => setFilters((current) => ({ ...current, [name]: value || undefined }));

  return (
    <section aria-labelledby="inbox-title">
      <div class="heading-row">
        <div id="inbox-title">
          <Title title="Conversations">Conversations</Title>
        </div>
        <span class={`live ${live ? 'on' : ''}`} role="status">
          {live ? 'Live' : connected ? 'Reconnecting…' : 'Connecting…'}
        </span>
      </div>
      <form class="filters" aria-label="Filter conversations" onSubmit={(e) => e.preventDefault()}>
        {SELECTS.map((select) => (
          <label key={select.name}>
            {select.label}
            <select value={filters[select.name] ?? ''} onChange={(e) => set(select.name, e.currentTarget.value)}>
              {select.options.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        ))}
        {widgets.data && (
          <label>
            Widget
            <select value={filters.widgetId ?? ''} onChange={(e) => set('widgetId', e.currentTarget.value)}>
              <option value="">Any</option>
              {widgets.data.map((widget) => (
                <option key={widget.id} value={widget.id}>
                  {widget.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          From
          <input type="date" value={filters.from ?? ''} onChange={(e) => set('from', e.currentTarget.value)} />
        </label>
        <label>
          To
          <input type="date" value={filters.to ?? ''} onChange={(e) => set('to', e.currentTarget.value)} />
        </label>
      </form>
      <p class="sr-only" aria-live="polite">
        {announcement}
      </p>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? (
        <Loading what="conversations" />
      ) : items.length === 0 ? (
        <p class="hint">No conversations match these filters.</p>
      ) : (
        <ul class="inbox" aria-label="Conversations">
          {items.map((item) => (
            <li key={item.sessionId} class={item.handoff?.state === 'requested' ? 'attention' : ''}>
              <a href={href('conversations', item.widgetId, item.sessionId)}>
                <span class="who">{item.visitorId}</span>
                <span class="hint">
                  {widgetName(item.widgetId)} · {formatDate(item.createdAt)}
                </span>
                <span class="preview-text">{item.lastMessage ? preview(item.lastMessage) : `${item.messageCount} messages`}</span>
              </a>
              <span class="tags">
                <span class={`badge status-${item.status}`}>{item.status}</span>
                <HandoffBadge conversation={item} />
                {item.rating && <span class="badge">{item.rating === 'positive' ? 'Rated 👍' : 'Rated 👎'}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
      {cursor && (
        <button type="button" class="secondary" onClick={loadMore}>
          Load more
        </button>
      )}
    </section>
  );
}
