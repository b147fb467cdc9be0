import type { VNode } from 'preact';
import type { ChatState } from '../chat-state.js';
import type { Conversation } from '../conversation.js';
import type { Context } from '../context.js';
import { fill, type Strings, NOT_SENT, PERSON, QUEUED, TYPING, VIEW } from '../i18n.js';
import { Markdown } from '../markdown.js';
import { withoutProductListing } from '../product-text.js';
import { ChatForm } from './ChatForm.js';
import type * as FeedbackChunk from '../feedback.js';
import { ProductCard } from './ProductCard.js';

interface MessageListProps {
  state: ChatState;
  conversation: Conversation;
  locale: string;
  t: Strings;
}

/** The conversation: greeting, messages with their product cards and forms, and the typing indicator. */
export function MessageList({ state, conversation, locale, t }: MessageListProps): VNode {
  const { messages, typing, config } = state;
  const clock = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' });
  return (
    <div part="messages" class="messages" data-testid="svc-messages">
      {config?.greeting && (
        <div part="message message-assistant" class="message" dir="auto">
          <Markdown text={config.greeting} />
        </div>
      )}
      {messages.map(({ key, id, role, content, status, products, forms, at, author }) => {
        // The cards show the products: the reply's own listing of them would say it twice (issue 12, defect 6).
        const text = role === 'assistant' && products.length ? withoutProductListing(content, products) : content;
        return [
          text && (
            <div
              key={key}
              part={`message message-${author ? 'operator' : role}`}
              class={role === 'user' ? 'message user brand' : 'message'}
              data-testid="svc-message"
              data-role={role}
              data-state={status ?? 'sent'}
              data-key={key}
              // Each bubble takes its direction from its own text: an English reply on a right-to-left page stays intact.
              dir="auto"
              // Thumbs at the foot of each AI reply the service stored (DESIGN.md section 12): the feedback chunk
              // (feedback.ts, `widget-assets/fb.<hash>.js` beside the panel; fetched once) adds them. A chunk that
              // failed to load (offline) is asked for again by the next render; the failure is swallowed (`String`),
              // not left as an unhandled rejection on the host page.
              ref={
                ((host: HTMLDivElement | null) =>
                  import(/* @vite-ignore */ __SVC_FEEDBACK__).then(
                    (chunk: typeof FeedbackChunk) => chunk.s(host, id, (conversation as Context).POST, (conversation as Context).current!),
                    String,
                  )) as (host: HTMLDivElement | null) => void
              }
            >
              {/* A person's reply says so, by name, in words (not only a colour): the AI disclosure is not about it. */}
              {author && (
                <b part="author" class="who" data-testid="svc-author">
                  {fill(t[PERSON], author)}
                </b>
              )}
              {/* Replies are Markdown; what the visitor typed is shown exactly as typed. */}
              {role === 'assistant' ? <Markdown text={text} /> : content}
              {status === 'failed' && <b> · {t[NOT_SENT]}</b>}
              {status === 'queued' && <i> · {t[QUEUED]}</i>}
            </div>
          ),
          // Beside the bubble rather than in it: the bubble's text stays exactly the message.
          text && (
            <small key={`${key}t`} data-testid="svc-time">
              {clock.format(at)}
            </small>
          ),
          products.length > 0 && (
            <div key={`${key}p`} part="products" class={`products${products.length > 1 ? ' several' : ''}`} data-key={text ? undefined : key}>
              {products.map((product) => (
                <ProductCard product={product} locale={locale} cta={t[VIEW]} />
              ))}
            </div>
          ),
          ...forms.map((form) => (
            <ChatForm
              key={`${key}/${form.formId}`}
              form={form}
              sent={state.sentForms.includes(`${key}/${form.formId}`)}
              disabled={typing || state.session === 'ended'}
              details={conversation.details}
              t={t}
              onSubmit={(answers, summary) => conversation.submitForm(key, form.formId, answers, summary)}
            />
          )),
      ];
      })}
      {/* Also while the history loads after a reload. */}
      {(typing || state.loading) && (
        <div part="typing" class="typing" role="status" data-testid="svc-typing">
          <b aria-hidden="true">•••</b>
          <i class="sr-only">{t[TYPING]}</i>
        </div>
      )}
    </div>
  );
}
