import type { VNode } from 'preact';
import type { ChatState } from '../chat-state.js';
import { HEX_COLOR, iconColorOn, shadeForWhiteText } from '../color.js';
import { DEFAULT_COLOR, type Appearance } from '../config-validation.js';
import type { Conversation } from '../conversation.js';
import { stringsFor } from '../i18n.js';
import { Composer } from './Composer.js';
import { CloseIcon } from './icons.js';
import { Launcher } from './Launcher.js';
import { MessageList } from './MessageList.js';
import { Rating } from './Rating.js';
import { StatusBanner } from './StatusBanner.js';

export interface AppProps {
  kind: 'bubble' | 'chatbox';
  /** A chatbox given no container covers the viewport. */
  fullscreen: boolean;
  state: ChatState;
  conversation: Conversation;
  /** The bubble's validated look; null for a chatbox. */
  appearance: Appearance | null;
  setOpen(open: boolean): void;
}

/**
 * The page's choices win over the widget's theme, which wins over the defaults. Every value here was validated
 * (hex colours, finite numbers), so the inline style cannot carry anything else.
 */
function themeStyle(state: ChatState, appearance: Appearance | null): { style: string; position: string } {
  const theme = state.config?.theme;
  const themeColor = typeof theme?.primaryColor === 'string' && HEX_COLOR.test(theme.primaryColor) ? theme.primaryColor : undefined;
  const themePosition = theme?.position === 'bottom-left' || theme?.position === 'bottom-right' ? theme.position : undefined;
  const color = appearance?.bubbleColor ?? themeColor ?? DEFAULT_COLOR;
  const position = appearance?.position ?? themePosition ?? 'bottom-right';
  const vars = [`--svc-brand:${color}`, `--svc-brand-strong:${shadeForWhiteText(color)}`, `--svc-on-brand:${iconColorOn(color)}`];
  if (appearance) {
    const side = position === 'bottom-left' ? appearance.offset.left : appearance.offset.right;
    vars.push(
      `--svc-size:${appearance.bubbleSize}px`,
      `--svc-icon-size:${appearance.bubbleIconSize}px`,
      `--svc-bottom:${appearance.offset.bottom}px`,
      `--svc-side:${side}px`,
    );
  }
  return { style: vars.join(';'), position };
}

/**
 * The whole widget: launcher (bubble only) and panel. A pure function of the state: the instance re-renders it on
 * every change and handles focus and scrolling itself, right after the synchronous render.
 */
export function App({ kind, fullscreen, state, conversation, appearance, setOpen }: AppProps): VNode {
  const language = state.config?.language || navigator.language || 'en';
  const t = stringsFor(language);
  const { style, position } = themeStyle(state, appearance);
  const bubble = kind === 'bubble';
  const title = state.config?.name || t.chat;
  // Everything else queues in the outbox (a reply pending, offline, the service away, rate limited): only a key
  // the service refuses for good makes sending pointless.
  const blocked = state.problem?.kind === 'unavailable' && !state.problem.retry;

  return (
    <div
      class={`root ${kind} ${position}${fullscreen ? ' fullscreen' : ''}`}
      style={style}
      // On the root, so Escape works from the launcher as well as from inside the panel.
      onKeyDown={(event) => {
        if (bubble && event.key === 'Escape') {
          event.stopPropagation();
          setOpen(false);
        }
      }}
    >
      {bubble && appearance && <Launcher icon={appearance.icon} open={state.open} t={t} onToggle={() => setOpen(!state.open)} />}
      <section
        part="panel"
        class="panel"
        data-testid="svc-panel"
        // A bubble's panel is a non-modal dialog; a chatbox is a region of the page (it may sit in a container).
        role={bubble ? 'dialog' : 'region'}
        aria-label={title}
        tabIndex={-1}
        hidden={!state.open}
      >
        <header part="header" class="brand">
          <h2>{title}</h2>
          {state.session === 'active' && (
            <button type="button" part="end-button" data-testid="svc-end" onClick={() => void conversation.end()}>
              {t.end}
            </button>
          )}
          {bubble && (
            <button type="button" part="close-button" data-testid="svc-close" aria-label={t.close} onClick={() => setOpen(false)}>
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
    </div>
  );
}
