import type { VNode } from 'preact';
import type { ChatState } from '../chat-state.js';
import type { Conversation } from '../conversation.js';
import { stringsFor, AI, CHAT, CLOSE, END } from '../i18n.js';
import { safeWebUrl } from '../safe-url.js';
import { Composer } from './Composer.js';
import { CloseIcon } from './icons.js';
import { MessageList } from './MessageList.js';
import { Rating } from './Rating.js';
import { StatusBanner } from './StatusBanner.js';

export interface AppProps {
  kind: 'bubble' | 'chatbox';
  state: ChatState;
  conversation: Conversation;
  setOpen(open: boolean): void;
}

/**
 * The panel (the loader drew the launcher and the themed root around it). A pure function of the state: the
 * instance re-renders it on every change and handles focus and scrolling itself, right after the synchronous render.
 */
export function App({ kind, state, conversation, setOpen }: AppProps): VNode {
  const language = state.config?.language || navigator.language || 'en';
  const t = stringsFor(language);
  const rtl = /^(ar|he|fa|ur|yi)\b/i.test(language);
  const bubble = kind === 'bubble';
  const theme = state.config?.theme;
  const title = theme?.title || state.config?.name || t[CHAT];
  const avatar = safeWebUrl(theme?.avatarUrl);
  // Everything else queues in the outbox (a reply pending, offline, the service away, rate limited): only a key
  // the service refuses for good makes sending pointless.
  const blocked = state.problem?.kind === 'unavailable' && !state.problem.retry;

  return (
    <section
      part="panel"
      class="panel"
      data-testid="svc-panel"
      // A bubble's panel is a non-modal dialog; a chatbox is a region of the page (it may sit in a container).
      role={bubble ? 'dialog' : 'region'}
      aria-label={title}
      lang={language}
      dir={rtl ? 'rtl' : 'ltr'}
      tabIndex={-1}
      hidden={!state.open}
    >
        <header part="header" class="brand">
          {avatar && <img part="avatar" class="avatar" src={avatar} alt="" referrerpolicy="no-referrer" />}
          <div class="title">
            <h2>{title}</h2>
            {theme?.subtitle && <p>{theme.subtitle}</p>}
          </div>
          {/* Visitors are told they talk to an AI (EU AI Act art. 50): a visible badge, its meaning in words. */}
          <span part="ai-badge" class="ai" role="img" aria-label={t[AI]} data-testid="svc-ai">
            AI
          </span>
          {state.session === 'active' && (
            <button type="button" part="end-button" data-testid="svc-end" onClick={() => void conversation.end()}>
              {t[END]}
            </button>
          )}
          {bubble && (
            <button type="button" part="close-button" data-testid="svc-close" aria-label={t[CLOSE]} onClick={() => setOpen(false)}>
              <CloseIcon />
            </button>
          )}
        </header>
        <MessageList state={state} conversation={conversation} locale={language} t={t} />
        <StatusBanner problem={state.problem} online={state.online} t={t} />
        {state.session === 'ended' ? (
          <Rating rating={state.rating} t={t} onRate={(rating) => void conversation.rate(rating)} onRestart={conversation.startOver} />
        ) : (
          <Composer t={t} disabled={blocked} onSend={(text) => void conversation.send(text)} />
        )}
        <div class="sr-only" aria-live="polite" data-testid="svc-live">
          {state.announcement}
        </div>
    </section>
  );
}
