import { Markdown } from '@svc/widget/markdown';
import { useEffect, useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import { followEvents } from '../api/events.js';
import type { ConversationDetail, Message } from '../api/types.js';
import { ErrorNote, formatDate, formatNumber, Loading, Title } from '../components/common.js';
import { useAction, useLoad } from '../hooks.js';
import { href } from '../router.js';
import { HandoffBadge } from './Inbox.js';

function Products({ message }: { message: Message }) {
  if (!message.products?.length) return null;
  return (
    <ul class="products" aria-label="Products shown">
      {message.products.map((product) => (
        <li key={product.id} class="product">
          {product.imageUrl && <img src={product.imageUrl} alt="" loading="lazy" />}
          <div>
            <strong>{product.name}</strong>
            <span>
              {formatNumber(product.price)} {product.currency ?? ''}
            </span>
            {product.url && (
              <a href={product.url} target="_blank" rel="noopener noreferrer">
                View {product.name}
              </a>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

function Forms({ message }: { message: Message }) {
  if (!message.forms?.length) return null;
  return (
    <>
      {message.forms.map((form) => (
        <div key={form.formId} class="form-shown">
          <strong>Form shown: {form.title}</strong>
          <ul>
            {form.questions.map((question) => (
              <li key={question.id}>
                {question.label} <span class="hint">({question.kind}{question.required ? ', required' : ''})</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

function Credits({ message }: { message: Message }) {
  const spent = Object.entries(message.credits ?? {}).filter(([, value]) => value > 0);
  if (spent.length === 0) return null;
  const total = spent.reduce((sum, [, value]) => sum + value, 0);
  return (
    <details class="credits">
      <summary>
        {formatNumber(total)} {total === 1 ? 'credit' : 'credits'}
      </summary>
      <ul>
        {spent.map(([bucket, value]) => (
          <li key={bucket}>
            {bucket}: {formatNumber(value)}
          </li>
        ))}
      </ul>
    </details>
  );
}

function who(message: Message): string {
  if (message.author) return `${message.author.name} (operator)`;
  return message.role === 'user' ? 'Visitor' : 'Assistant';
}

function MessageItem({ message }: { message: Message }) {
  const kind = message.author ? 'operator' : message.role;
  return (
    <li class={`message ${kind}`}>
      <p class="meta">
        <strong>{who(message)}</strong> <time dateTime={message.createdAt}>{formatDate(message.createdAt)}</time>
      </p>
      {/* Model output is Markdown, rendered as the widget shows it to the visitor: built as nodes, never HTML. */}
      {kind === 'assistant' ? (
        <div class="content markdown">
          <Markdown text={message.content} />
        </div>
      ) : (
        <p class="content">{message.content}</p>
      )}
      <Products message={message} />
      <Forms message={message} />
      <Credits message={message} />
      {message.feedback && (
        <p class="hint" data-testid="message-feedback">
          Visitor rated it {message.feedback.rating === 'up' ? 'helpful' : 'not helpful'}
          {message.feedback.reason && ` (${message.feedback.reason})`}
          {message.feedback.comment && `: “${message.feedback.comment}”`}
        </p>
      )}
    </li>
  );
}

/** "Add as an eval case": the conversation's visitor messages become a case of a suite (DESIGN.md section 12). */
function AddAsEvalCase({ widgetId, sessionId }: { widgetId: string; sessionId: string }) {
  const [suite, setSuite] = useState('conversations');
  const [added, setAdded] = useState('');
  const add = useAction(admin.addEvalCase);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setAdded('');
    const stored = await add.run(widgetId, suite.trim(), sessionId);
    if (stored) setAdded(`Added to the suite “${stored.name}”, which now has ${stored.cases.length} case${stored.cases.length === 1 ? '' : 's'}.`);
  };
  return (
    <form class="row add-eval" onSubmit={submit} aria-label="Add as an eval case">
      <label>
        Eval suite
        <input name="suite" value={suite} pattern="[A-Za-z0-9][A-Za-z0-9_.\-]*" maxLength={100} required onInput={(e) => setSuite(e.currentTarget.value)} />
      </label>
      <button type="submit" class="secondary" disabled={add.busy || !suite.trim()}>
        Add as an eval case
      </button>
      <span role="status" class="hint">
        {added && (
          <>
            {added} <a href={href('widgets', widgetId, 'evals')}>Open the evals</a>
          </>
        )}
      </span>
      <ErrorNote error={add.error} />
    </form>
  );
}

/** One conversation with everything about it, live; the operator takes it over, replies, releases or resolves it. */
export function ConversationScreen({ widgetId, sessionId }: { widgetId: string; sessionId: string }) {
  const detail = useLoad<ConversationDetail>(() => admin.conversation(widgetId, sessionId), [widgetId, sessionId]);
  const [text, setText] = useState('');
  const act = useAction(async (step: () => Promise<unknown>) => {
    await step();
    detail.reload();
    return true;
  });

  useEffect(() => {
    const feed = followEvents({
      onEvent(event) {
        if (event.data?.sessionId !== sessionId || event.data?.widgetId !== widgetId) return;
        // Whatever changed (a message, a status, a handoff), the conversation is read again as the service has it.
        detail.reload();
      },
    });
    return () => feed.stop();
  }, [widgetId, sessionId]);

  const conversation = detail.data?.session;
  const handoff = conversation?.handoff;
  const open = conversation?.status === 'active';
  const send = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (!text.trim()) return;
    if (await act.run(() => admin.reply(widgetId, sessionId, text.trim()))) setText('');
  };

  return (
    <section class="conversation">
      <p>
        <a href={href('conversations')}>← All conversations</a>
      </p>
      <Title title="Conversation">Conversation with {conversation?.visitorId ?? 'a visitor'}</Title>
      <ErrorNote error={detail.error} />
      {!detail.data && detail.loading && <Loading what="the conversation" />}
      {conversation && (
        <>
          <dl class="facts">
            <div>
              <dt>Status</dt>
              <dd>{conversation.status}</dd>
            </div>
            <div>
              <dt>Started</dt>
              <dd>{formatDate(conversation.createdAt)}</dd>
            </div>
            <div>
              <dt>Rating</dt>
              <dd>{conversation.rating ?? 'not rated'}</dd>
            </div>
            <div>
              <dt>Handoff</dt>
              <dd>{handoff ? <HandoffBadge conversation={conversation} /> : 'none'}</dd>
            </div>
          </dl>
          <div class="row actions">
            {open && handoff?.state !== 'active' && (
              <button type="button" disabled={act.busy} onClick={() => act.run(() => admin.acceptHandoff(widgetId, sessionId))}>
                Take over
              </button>
            )}
            {open && handoff?.state === 'active' && (
              <button type="button" class="secondary" disabled={act.busy} onClick={() => act.run(() => admin.releaseHandoff(widgetId, sessionId))}>
                Release to the assistant
              </button>
            )}
            {open && (
              <button type="button" class="secondary" disabled={act.busy} onClick={() => act.run(() => admin.resolve(widgetId, sessionId))}>
                Resolve
              </button>
            )}
          </div>
          <ErrorNote error={act.error} />
          <AddAsEvalCase widgetId={widgetId} sessionId={sessionId} />
          <ol class="history" aria-label="Messages">
            {detail.data!.messages.map((message) => (
              <MessageItem key={message.messageId} message={message} />
            ))}
          </ol>
          {open && handoff?.state === 'active' && (
            <form class="reply" onSubmit={send}>
              <label for="reply-text">Reply to the visitor</label>
              <textarea id="reply-text" rows={3} maxLength={4000} value={text} onInput={(e) => setText(e.currentTarget.value)} />
              <button type="submit" disabled={act.busy || !text.trim()}>
                Send reply
              </button>
            </form>
          )}
        </>
      )}
    </section>
  );
}
