import type { Agent, AgentReply, AgentRequest } from '@svc/core/store-kit';
import { zeroMeters } from '@svc/core/store-kit';
import { abortable } from './abort.js';
import { measureUsage } from './tokens.js';

export type ScriptedHandler = (request: AgentRequest) => Partial<AgentReply> | Promise<Partial<AgentReply>>;

/**
 * An agent whose replies a test writes. Whatever the handler leaves out gets a neutral default: empty content
 * and lists, `sessionEnded` false, zero meters, and usage counted with the tokenizer (the message as input,
 * the content as output). The reply rejects with the signal's reason as soon as the request is aborted, even
 * if the handler ignores the signal, as a real agent would.
 *
 * @example
 * const slow = createScriptedAgent(async ({ signal }) => {
 *   await setTimeout(30_000, undefined, { signal });
 *   return { content: 'Finally.' };
 * });
 * const failing = createScriptedAgent(() => {
 *   throw new Error('model unavailable');
 * });
 */
export function createScriptedAgent(handler: ScriptedHandler): Agent {
  return {
    async reply(request) {
      request.signal.throwIfAborted();
      // Inside an async function a handler that throws synchronously rejects the reply, like one that rejects.
      const partial = await abortable(Promise.resolve(handler(request)), request.signal);
      return withDefaults(request, partial);
    },
  };
}

function withDefaults(request: AgentRequest, partial: Partial<AgentReply>): AgentReply {
  const content = partial.content ?? '';
  return {
    content,
    products: partial.products ?? [],
    actions: partial.actions ?? [],
    forms: partial.forms ?? [],
    sessionEnded: partial.sessionEnded ?? false,
    usage: partial.usage ?? measureUsage([request.message], content),
    meters: partial.meters ?? zeroMeters(),
    // A scripted reply that asks for a person hands the conversation over, as the agent it wraps would.
    ...(partial.handoff ? { handoff: true } : {}),
    ...(partial.sources === undefined ? {} : { sources: partial.sources }),
    ...(partial.outcome === undefined ? {} : { outcome: partial.outcome }),
    ...(partial.confidence === undefined ? {} : { confidence: partial.confidence }),
  };
}

/** What the instant agent answers: fixed, so a benchmark measures the service and not the agent. */
export const INSTANT_REPLY = Object.freeze({
  content: 'Thanks for your message.',
  usage: Object.freeze({ inputTokens: 12, outputTokens: 5 }),
});

/**
 * An agent that answers at once with a fixed short reply and fixed small usage, without tokenizing anything:
 * for benchmarks of the turn pipeline.
 */
export function createInstantAgent(): Agent {
  return {
    reply(request) {
      if (request.signal.aborted) return Promise.reject(request.signal.reason);
      return Promise.resolve({
        content: INSTANT_REPLY.content,
        products: [],
        actions: [],
        forms: [],
        sessionEnded: false,
        usage: { ...INSTANT_REPLY.usage },
        meters: zeroMeters(),
      });
    },
  };
}
