import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent } from '@svc/core';
import { createScriptedAgent } from '@svc/agents';

/**
 * Timing of streamed turns over a real socket, for the stream tests and `pnpm bench`. The agent and the client
 * run in one process, so `performance.now()` on both sides is one clock: the time from the agent writing its
 * first token to the first byte of that delta reaching the client is the service's own delay.
 */

export interface TimedDeltaAgent {
  agent: Agent;
  /** `performance.now()` when the agent wrote its first delta, by the visitor message it answered. */
  firstDeltaAt: Map<string, number>;
}

/**
 * A streaming agent that writes `deltas` pieces `intervalMs` apart, like a model producing tokens, and
 * records when it wrote the first one.
 *
 * @example
 * const { agent, firstDeltaAt } = createTimedDeltaAgent({ deltas: 5, intervalMs: 2 });
 */
export function createTimedDeltaAgent(options: { deltas: number; intervalMs: number }): TimedDeltaAgent {
  const firstDeltaAt = new Map<string, number>();
  const agent = createScriptedAgent(async ({ message, onDelta, signal }) => {
    const pieces = Array.from({ length: options.deltas }, (_, i) => `Piece ${i + 1} of the answer. `);
    const content = pieces.join('');
    for (const [index, piece] of pieces.entries()) {
      if (index > 0) await sleep(options.intervalMs, undefined, { signal });
      if (index === 0) firstDeltaAt.set(message, performance.now());
      onDelta?.(piece);
    }
    return { content };
  });
  return { agent, firstDeltaAt };
}

export interface StreamedTurnTiming {
  status: number;
  /** When the request was sent. */
  sentAt: number;
  /** When the bytes holding the first `message.delta` event arrived. */
  firstDeltaAt: number;
  /** When the `message.completed` (or `message.failed`) event arrived. */
  completedAt: number;
  /** The whole response body. */
  body: string;
}

/**
 * Posts one streaming turn to `url` (…/messages) with Node's HTTP client and timestamps the chunks as they arrive: no parser or
 * fetch machinery between the socket and the clock.
 */
export function timeStreamedTurn(options: { url: string; headers: Record<string, string>; content: string }): Promise<StreamedTurnTiming> {
  const payload = JSON.stringify({ content: options.content, response_type: 'stream' });
  return new Promise((resolve, reject) => {
    const sentAt = performance.now();
    let firstDeltaAt = Number.NaN;
    let completedAt = Number.NaN;
    let body = '';
    const req = httpRequest(
      options.url,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        agent: false,
      },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const now = performance.now();
          body += chunk;
          if (Number.isNaN(firstDeltaAt) && body.includes('event: message.delta\n')) firstDeltaAt = now;
          if (Number.isNaN(completedAt) && /event: message\.(completed|failed)\n/.test(body)) completedAt = now;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, sentAt, firstDeltaAt, completedAt, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
