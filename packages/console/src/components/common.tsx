import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/** An error answer, read out when it appears (the service's messages name the field and the remedy). */
export function ErrorNote({ error }: { error: { message: string } | undefined }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error.message}
    </p>
  );
}

/** A form's submit button and, beside it, what the last save said (read out by screen readers). */
export function SaveRow({ label, disabled, saved }: { label: string; disabled: boolean; saved: string }) {
  return (
    <div class="row">
      <button type="submit" disabled={disabled}>
        {label}
      </button>
      <span role="status" class="hint">
        {saved}
      </span>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="hint" role="status">
      Loading {what}…
    </p>
  );
}

/** The screen's heading, focused when the screen opens so a screen reader starts there. */
export function Title({ children, title }: { children: ComponentChildren; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Svc console`;
    ref.current?.focus();
  }, [title]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

/** Copies `text`; says so in a live region (and says when the browser refused). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState('');
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied');
    } catch {
      setSaid('Copy failed: select the text and copy it');
    }
  };
  return (
    <>
      <button type="button" class="secondary" onClick={copy}>
        {label}
      </button>
      <span class="hint" role="status">
        {said}
      </span>
    </>
  );
}

/** A secret the service shows once: the warning, the value selectable in full, and a copy button. */
export function SecretOnce({ label, value }: { label: string; value: string }) {
  const id = `secret-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div class="secret" role="group" aria-labelledby={id}>
      <p id={id}>
        <strong>{label}</strong>: shown only now. Copy it to a safe place; it cannot be shown again.
      </p>
      <code class="secret-value">{value}</code>
      <div class="row">
        <CopyButton text={value} label={`Copy ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}

export const formatDate = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

export const formatNumber = (value: number): string => value.toLocaleString(undefined, { maximumFractionDigits: 2 });
