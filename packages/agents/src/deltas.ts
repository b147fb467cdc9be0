import type { AgentRequest } from '@svc/core/store-kit';

/** Receives reply text as it is written (see `AgentRequest.onDelta` in @svc/core). */
export type DeltaSink = (text: string) => void;

/** The request's delta sink, if the caller streams. */
export function deltaSinkOf(request: AgentRequest): DeltaSink | undefined {
  return typeof request.onDelta === 'function' ? request.onDelta : undefined;
}

/** A line break, or the space after a sentence's `.`, `!`, `?` or `…` (optionally closed by `*`, `_`, `)` or a quote). */
const SENTENCE_BREAK = /[ \t]*\n\s*|(?<=[.!?…][*_)"'’”]*)[ \t]+/gu;

/**
 * Cuts Markdown into sentences and lines, keeping every character: the pieces concatenate to `markdown`
 * exactly, each piece carrying the white space that follows it. A streaming client that renders pieces as
 * they come therefore ends with the same text the reply stores.
 *
 * @example
 * sentencePieces('Hi! We ship.\n\n- Tents') // ['Hi! ', 'We ship.\n\n', '- Tents']
 */
export function sentencePieces(markdown: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const match of markdown.matchAll(SENTENCE_BREAK)) {
    const end = match.index + match[0].length;
    if (end >= markdown.length) break;
    pieces.push(markdown.slice(start, end));
    start = end;
  }
  if (start < markdown.length) pieces.push(markdown.slice(start));
  return pieces;
}

/**
 * Forwards a model's text deltas so that what was forwarded is always the final content: white space at the
 * start of the reply is dropped and white space at the end held back until more text follows (the stored
 * content is trimmed), and the texts of successive model steps are joined by a blank line, since a step
 * before a tool call ("Let me check.") and the answer after it are separate paragraphs.
 */
export class DeltaWriter {
  #written = '';
  #held = '';
  #stepStart = true;
  readonly #sink: DeltaSink;

  constructor(sink: DeltaSink) {
    this.#sink = sink;
  }

  /** Everything forwarded so far: the content of the reply if the turn ended now. */
  get text(): string {
    return this.#written;
  }

  write(piece: string): void {
    let text = piece;
    if (this.#stepStart) {
      text = text.trimStart();
      if (text === '') return;
      this.#stepStart = false;
      if (this.#written !== '') this.#held = '\n\n';
    }
    const combined = this.#held + text;
    const body = combined.trimEnd();
    this.#held = combined.slice(body.length);
    if (body !== '') this.#emit(body);
  }

  /** The model finished a step: its trailing white space is dropped; the next step's text starts a paragraph. */
  endStep(): void {
    this.#held = '';
    this.#stepStart = true;
  }

  /** Forwards text the model did not write, such as the local sentence standing in for a tool-only answer. */
  writeWhole(text: string): void {
    if (text !== '') this.#emit(text);
  }

  #emit(text: string): void {
    this.#written += text;
    this.#sink(text);
  }
}
