// Plain constants, which the build writes where they are read (rolldown's inlineConst): no object of names ships.
import { MESSAGE_COMPLETED, MESSAGE_DELTA, MESSAGE_FAILED, MESSAGE_HANDOFF, MESSAGE_START } from '@svc/core/event-stream';
import { ApiError } from './api.js';
import type { HistoryItem, MessageReply } from './api-types.js';
import type { Context, Turn } from './context.js';
import { readEvents } from './event-stream.js';
import { plainText } from './markdown.js';
import { chatMessage, patchMessages, placed } from './messages.js';
import { sleep, toApiError } from './retry.js';
import { timezone } from './session.js';

/** How often a 202 reply is looked for in the history, and for how long (the server's agent limit is 120 s). */
export const POLL_MS = 2000;
const POLL_LIMIT_MS = 180_000;

/** A reply as the stream completes it, or as the history holds it (no forms; whether it ended the session unsaid). */
type Reply = Pick<MessageReply, 'messageId' | 'content'> & Partial<Pick<MessageReply, 'products' | 'forms' | 'sessionEnded'>>;

/**
 * The turns: each goes out after the previous one's reply, with `response_type: "stream"` (DESIGN.md 4), and its
 * reply is shown as the agent writes it.
 */
export function createTurnStream(c: Context): Pick<Context, 'turn'> {
  const state = c.store.get;
  const set = c.store.set;
  /** Turns (messages and forms) go out one at a time, in order: each waits for the previous one's reply. */
  let lane: Promise<unknown> = Promise.resolve();

  /**
   * 202 (DESIGN.md 4, slow model): the reply lands in the history under `messageId`; look for it there. The turn
   * is accepted by then, so a poll that fails (the service restarting, say) is simply tried again.
   */
  async function awaitReply(session: string, messageId: string, turn: number): Promise<Reply> {
    const deadline = Date.now() + POLL_LIMIT_MS;
    while (Date.now() < deadline && turn === c.generation) {
      await sleep(POLL_MS);
      let items: HistoryItem[];
      try {
        items = await c.history(session);
      } catch (error) {
        const { status } = toApiError(error);
        if (status === 0 || status >= 500) continue;
        throw error;
      }
      const found = items.find((item) => item.messageId === messageId);
      // Whether that turn ended the session is not in the history; the next message learns it (409).
      if (found) return found;
    }
    throw new ApiError(504, 'reply_timeout', '');
  }

  /**
   * Shows a reply. A reply already on screen (a retry the service answered by replaying a turn whose first answer
   * was lost, after the history was reloaded) is not shown twice, nor is the visitor message it answers.
   */
  function receive(reply: Reply, question: string, draft?: string): void {
    const products = reply.products ?? [];
    // The streamed bubble gives way to the final reply, which keeps its key (and so its place and scroll position).
    const list = state().messages.filter((item) => item.key !== draft);
    const known = list.some((item) => item.id === reply.messageId);
    const answer = chatMessage('assistant', reply.content, {
      ...(draft && { key: draft }),
      id: reply.messageId,
      products,
      forms: reply.forms ?? [],
    });
    set({
      messages: known ? list.filter((item) => item.key !== question) : placed(list, question, answer),
      ...(!known && { announcement: [plainText(reply.content), ...products.map((product) => product.name)].filter(Boolean).join('. ') }),
      ...(reply.sessionEnded && { session: 'ended' as const }),
    });
  }

  /**
   * One turn: session, then the POST. The reply's bubble appears with the first delta (the typing indicator until
   * then) and grows as the agent writes; `message.completed` carries the same reply a sync call returns, which then
   * replaces it. A stream that breaks after `message.start` loses nothing: the reply is read from the history under
   * its id (as after a 202), never sent again.
   */
  async function run(turn: Turn, accepted?: () => void): Promise<ApiError | null> {
    // A message's reply goes right after it: the message's bubble has its Idempotency-Key for key (outbox.ts).
    const { idempotencyKey: question, ...body } = turn;
    const current = c.generation;
    let messageId: string | undefined;
    let reply: Reply | undefined;
    let draft: string | undefined;
    let text = '';
    set({ typing: true });
    try {
      if (!state().online) throw new ApiError(0, 'offline', '');
      const id = await c.ensure();
      const stream = await c.POST<ReadableStream<Uint8Array>>(id, 'content' in body ? '/messages' : '/form-submissions', {
        body: { ...body, ...timezone(), response_type: 'stream' },
        headers: { 'Idempotency-Key': question },
      });
      if (current !== c.generation) return null;
      accepted?.();
      set({ problem: null });
      try {
        for await (const [event, data] of readEvents(stream)) {
          if (current !== c.generation) return null;
          if (event === MESSAGE_START) messageId = data.messageId;
          if (event === MESSAGE_COMPLETED) reply = data.data;
          if (event === MESSAGE_FAILED) throw new ApiError(502, data.error.code, data.error.message);
          // A person has the conversation: no AI reply; theirs comes on the session's event stream.
          if (event === MESSAGE_HANDOFF) return null;
          // A replayed turn already on screen is not drafted a second time.
          if (event === MESSAGE_DELTA && data.text && !state().messages.some((item) => item.id === messageId)) {
            text += data.text;
            if (draft) patchMessages(c.store, [draft], { content: text });
            else {
              // Created with its first text, so it is on screen at once and the list scrolls to its start. No id
              // until it completes: the id marks a reply already on screen (a replay), which this is not.
              const bubble = chatMessage('assistant', text);
              draft = bubble.key;
              set({ typing: false, messages: placed(state().messages, question, bubble) });
            }
          }
        }
      } catch (error) {
        // Only a failed turn ends here; a broken connection reads the reply from the history below.
        if (error instanceof ApiError) throw error;
      }
      if (!messageId) throw new ApiError(0, 'network_error', '');
      reply ??= await awaitReply(id, messageId, current);
      if (current === c.generation) receive(reply, question, draft);
      return null;
    } catch (error) {
      if (current !== c.generation || c.signal.aborted) return null;
      // No half-written bubble stays behind a failure (the banner's retry replays the turn).
      set({ messages: state().messages.filter((item) => item.key !== draft) });
      return toApiError(error);
    } finally {
      if (current === c.generation) set({ typing: false });
    }
  }

  return {
    turn(turn, accepted) {
      const task = (): Promise<ApiError | null> => run(turn, accepted);
      const next = lane.then(task, task);
      lane = next.catch(() => undefined);
      return next;
    },
  };
}
