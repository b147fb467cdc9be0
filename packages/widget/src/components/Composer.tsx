import type { VNode } from 'preact';
import { type Strings, PLACEHOLDER, SEND } from '../i18n.js';
import { SendIcon } from './icons.js';

interface ComposerProps {
  t: Strings;
  /** Sending is not possible now (a turn runs, offline, rate limited); typing still is. */
  disabled: boolean;
  onSend(text: string): void;
}

/**
 * The message box. Uncontrolled: what the visitor types lives in the textarea itself, so re-renders never touch
 * it. Enter sends, Shift+Enter starts a new line; the Enter that confirms an IME composition does neither.
 */
export function Composer({ t, disabled, onSend }: ComposerProps): VNode {
  // The box grows with what is typed, up to its CSS max-height (then it scrolls). Through the CSSOM: a strict CSP allows it.
  const fit = (input: HTMLTextAreaElement): void => {
    input.style.height = '';
    if (input.value) input.style.height = `${input.scrollHeight + input.offsetHeight - input.clientHeight}px`;
  };
  const send = (event: Event): void => {
    event.preventDefault();
    const input = (event.currentTarget as HTMLElement).closest('form')!.querySelector('textarea')!;
    if (disabled || !input.value.trim()) return;
    onSend(input.value);
    input.value = '';
    fit(input);
  };
  return (
    <form part="composer" class="composer" onSubmit={send}>
      <textarea
        part="input"
        data-testid="svc-input"
        aria-label={t[PLACEHOLDER]}
        placeholder={t[PLACEHOLDER]}
        rows={1}
        maxLength={4000}
        enterkeyhint="send"
        onInput={(event) => fit(event.currentTarget)}
        onKeyDown={(event) => event.key === 'Enter' && !event.shiftKey && !event.isComposing && send(event)}
      />
      <button part="send" class="brand" data-testid="svc-send" aria-label={t[SEND]} disabled={disabled}>
        <SendIcon />
      </button>
    </form>
  );
}
