import type { TokenUsage } from '@svc/core/store-kit';
// The encoding entry point loads one vocabulary (o200k_base, the GPT-4o family's) instead of the package's
// default model table.
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Visitor text may contain strings such as `<|endoftext|>`; by default the tokenizer throws on them. Counting
 * them as the plain text they are keeps a message from failing a turn, and is what a model would be sent.
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Tokens of `text` in the o200k_base encoding. */
export function countTokens(text: string): number {
  return text === '' ? 0 : countO200k(text, PLAIN_TEXT);
}

/**
 * Usage of a turn: what the agent read (summed piece by piece) and the reply it wrote.
 *
 * @example
 * measureUsage(['You are helpful.', 'Do you ship to Canada?'], 'Yes, we do.')
 */
export function measureUsage(read: readonly string[], content: string): TokenUsage {
  let inputTokens = 0;
  for (const text of read) inputTokens += countTokens(text);
  return { inputTokens, outputTokens: countTokens(content) };
}
