import type { AgentReply, Product, TokenUsage } from '@svc/core/store-kit';
import { zeroMeters } from '@svc/core/store-kit';
import { formatPrice } from '../compose-answer.js';
import { escapeMarkdown, markdownLink } from '../markdown.js';
import { phrasesFor } from '../phrases.js';
import { countTokens } from '../tokens.js';
import { LlmAgentError } from './llm-agent-error.js';
import type { TurnLog } from './turn-log.js';

export interface TurnResult {
  /** The model's text of its last step. */
  text: string;
  /** Model calls made (AI SDK `steps.length`). */
  steps: number;
  /** AI SDK `totalUsage`: summed over the steps; a field is undefined when the provider did not report it. */
  usage: { inputTokens: number | undefined; outputTokens: number | undefined };
  /** Everything the turn sent as prompt text (system prompt, history, message), for estimating missing usage. */
  prompt: readonly string[];
}

export interface ReplyInput {
  language: string;
  model: string;
  log: TurnLog;
  result: TurnResult;
}

/**
 * The reply of a finished turn. Products, the form and the end of the session come from the tools' log; the
 * content is the model's text, or, when its last step was only a tool call, the local agent's sentence for
 * what the tool did. A turn with nothing to show rejects rather than answering an empty bubble.
 */
export function buildReply(input: ReplyInput): AgentReply {
  const { log, result } = input;
  const products = [...log.products.values()];
  // The engine keeps a surfaced form pending for submission, which needs an active session: a form outranks
  // an `end_conversation` called in the same turn.
  const forms = log.form === null ? [] : [log.form];
  // A handoff keeps the session open for the person who takes over: it outranks `end_conversation` too.
  const sessionEnded = log.ended && log.form === null && !log.handoff;
  const content = result.text.trim() !== '' ? result.text.trim() : standIn({ ...input, products, sessionEnded });
  return {
    content,
    products,
    actions: [],
    forms,
    sessionEnded,
    ...(log.handoff ? { handoff: true } : {}),
    sources: [...log.sources.values()],
    // Searched and found nothing confident, and no other way forward: the model was told to say it does not know.
    ...(log.confidence !== null && log.sources.size === 0 && products.length === 0 && forms.length === 0 && !log.handoff && !sessionEnded
      ? { outcome: 'unanswered' as const }
      : {}),
    confidence: log.confidence,
    usage: usageOf(result, content),
    meters: {
      ...zeroMeters(),
      retrievals: log.retrievals,
      embeddings: log.embeddings,
      reranks: log.reranks,
      // Plugins stay 0 until the widget has tools.
      orchestrationSteps: Math.max(0, result.steps - 1),
    },
  };
}

interface StandInInput extends ReplyInput {
  products: Product[];
  sessionEnded: boolean;
}

function standIn(input: StandInInput): string {
  const phrases = phrasesFor(input.language);
  if (input.log.handoff) return phrases.handoff;
  if (input.log.form !== null) return phrases.formLeadIn(escapeMarkdown(input.log.form.title));
  if (input.sessionEnded) return phrases.farewell;
  if (input.products.length > 0) {
    const list = input.products.map((product) => `${markdownLink(product.name, product.url)} (${formatPrice(product, input.language)})`);
    return phrases.productsLead(list.join(', '));
  }
  throw new LlmAgentError('empty_answer', `${input.model}: the model returned no text after ${input.result.steps} step(s)`);
}

/**
 * Providers report usage, and that is what is billed. Some OpenAI-compatible servers omit it; then the turn is
 * estimated with the local tokenizer (prompt in, content out) rather than billed as free.
 */
function usageOf(result: TurnResult, content: string): TokenUsage {
  return {
    inputTokens: result.usage.inputTokens ?? result.prompt.reduce((sum, text) => sum + countTokens(text), 0),
    outputTokens: result.usage.outputTokens ?? countTokens(content),
  };
}
