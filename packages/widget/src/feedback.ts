import { adoptStyles } from './stylesheet.js';
import { THUMB_PATH } from './icon-paths.js';

/**
 * Thumbs on an AI reply (DESIGN.md section 12): `widget-assets/fb.<hash>.js`, a chunk of its own that the panel
 * imports as it draws message bubbles (components/MessageList.tsx), since it does not fit the panel's 25 KB budget. Plain DOM,
 * no Preact: it appends to the bubble of a finished reply, whose children Preact no longer changes.
 *
 * Up or down is sent at once (again replaces it); a thumbs-down then offers the reasons and an optional comment, sent
 * with a second press. Buttons with `aria-pressed` and names in words; the reasons are a labelled group; the thanks
 * are a status message.
 */

type Rating = 'up' | 'down';
const REASONS = ['wrong', 'incomplete', 'unhelpful', 'other'] as const;
export interface FeedbackBody {
  rating: Rating;
  reason?: (typeof REASONS)[number];
  comment?: string;
}
/** The panel's POST (context.ts `Call`) and the session it goes to: it rejects when it could not send. */
export type Post = [post: (session: string, path: string, request: { body: FeedbackBody }) => Promise<unknown>, session: string];

/** Up, down, the reasons' question, the four reasons, comment, send, thanks. */
const STRINGS: Record<string, string[]> = {
  en: ['Helpful', 'Not helpful', 'What was wrong?', 'Wrong', 'Incomplete', 'Unhelpful', 'Other', 'Comment (optional)', 'Send', 'Thanks for your feedback!'],
  fr: ['Utile', 'Pas utile', "Qu'est-ce qui n'allait pas ?", 'Faux', 'Incomplet', 'Inutile', 'Autre', 'Commentaire (facultatif)', 'Envoyer', 'Merci pour votre avis !'],
  de: ['Hilfreich', 'Nicht hilfreich', 'Was war falsch?', 'Falsch', 'Unvollständig', 'Nutzlos', 'Anderes', 'Kommentar (optional)', 'Senden', 'Danke für Ihr Feedback!'],
  es: ['Útil', 'No útil', '¿Qué falló?', 'Incorrecto', 'Incompleto', 'Poco útil', 'Otro', 'Comentario (opcional)', 'Enviar', '¡Gracias por tu opinión!'],
};

const CSS = `.fb{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin:-2px 0 4px}
.fb button{min-width:32px;min-height:32px;padding:6px 10px;border-radius:16px;background:var(--b);color:var(--f);border:1px solid var(--h);font-size:13px}
.fb>button{padding:7px}.fb>button+button svg{transform:rotate(180deg)}
.fb [aria-pressed='true']{box-shadow:0 0 0 2px var(--k)}
.fb form,.fb [role=group]{display:flex;flex-wrap:wrap;gap:6px;flex-basis:100%}
.fb label{display:flex;flex-direction:column;gap:4px;flex-basis:100%;font-size:13px}
.fb textarea{font:inherit;padding:6px;border:1px solid var(--h);border-radius:8px;background:var(--b);color:var(--f);resize:vertical}
.fb p{margin:0;font-size:13px}`;

const styled = new WeakSet<Node>();

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, text = ''): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) created.setAttribute(name, value);
  if (text) created.textContent = text;
  return created;
}

function thumbIcon(): SVGSVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('fill', 'currentColor');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', THUMB_PATH);
  svg.append(path);
  return svg;
}

/**
 * Adds the thumbs at the foot of a message bubble the panel drew (once: it draws bubbles again), if it is an AI reply
 * the service stored (`id` is null until then; a person's reply is `message-operator`). The strings follow the
 * panel's language (its `lang`), as i18n.ts.
 */
export function show(bubble: HTMLElement | null, id: string | null, ...[post, session]: Post): void {
  if (!id || bubble?.getAttribute('part') !== 'message message-assistant' || bubble.querySelector('.fb')) return;
  const host = element('div');
  bubble.append(host);
  const root = host.getRootNode();
  if (root instanceof ShadowRoot && !styled.has(root)) {
    styled.add(root);
    adoptStyles(root, CSS);
  }
  const language = (host.closest('[lang]')?.getAttribute('lang') ?? '').split('-')[0]!.toLowerCase();
  const s = STRINGS[language] ?? STRINGS.en!;
  host.className = 'fb';
  host.setAttribute('part', 'feedback');
  host.dataset.testid = 'svc-feedback';

  const thumbs = (['up', 'down'] as const).map((rating, i) => {
    const button = element('button', { type: 'button', 'aria-label': s[i]!, 'aria-pressed': 'false', 'data-testid': `svc-feedback-${rating}` });
    button.append(thumbIcon());
    button.onclick = () => rate(rating);
    return button;
  });
  const thanks = element('p', { role: 'status' });
  let form: HTMLFormElement | null = null;
  host.append(...thumbs, thanks);

  const press = (buttons: HTMLElement[], chosen: HTMLElement | null): void => {
    for (const button of buttons) button.setAttribute('aria-pressed', String(button === chosen));
  };
  const send = (body: FeedbackBody): Promise<boolean> => post(session, `/messages/${encodeURIComponent(id)}/feedback`, { body }).then(() => true, () => false);

  function rate(rating: Rating): void {
    press(thumbs, thumbs[rating === 'up' ? 0 : 1]!);
    form?.remove();
    form = null;
    thanks.textContent = '';
    void send({ rating }).then((sent) => {
      if (!sent) press(thumbs, null);
      else if (rating === 'up') thanks.textContent = s[9]!;
    });
    if (rating === 'down') host.insertBefore((form = reasons()), thanks);
  }

  /** After a thumbs-down: the reasons (one at most), a comment, and the button that sends them. */
  function reasons(): HTMLFormElement {
    const created = element('form');
    const group = element('div', { role: 'group', 'aria-label': s[2]! });
    let reason: FeedbackBody['reason'];
    const chips = REASONS.map((value, i) => {
      const chip = element('button', { type: 'button', 'aria-pressed': 'false', 'data-testid': `svc-reason-${value}` }, s[3 + i]);
      chip.onclick = () => {
        reason = value;
        press(chips, chip);
      };
      return chip;
    });
    group.append(...chips);
    const label = element('label', {}, s[7]);
    const comment = element('textarea', { rows: '2', maxlength: '1000' });
    label.append(comment);
    created.append(group, label, element('button', { type: 'submit', 'data-testid': 'svc-feedback-send' }, s[8]));
    created.onsubmit = (event) => {
      event.preventDefault();
      const text = comment.value.trim();
      void send({ rating: 'down', ...(reason ? { reason } : {}), ...(text ? { comment: text } : {}) }).then((sent) => {
        if (!sent) return;
        created.remove();
        form = null;
        thanks.textContent = s[9]!;
      });
    };
    return created;
  }
}

// One letter: the panel calls it by this name, and every byte of the panel counts.
export { show as s };
