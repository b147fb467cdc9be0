/** A small closed-loop load generator: `concurrency` workers each send requests back to back. */

export interface LoadResult {
  /** Every request's latency (ms), ascending. */
  latencies: number[];
  requests: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runLoad(options: {
  concurrency: number;
  durationMs: number;
  /** One request; `worker` is the index of the worker sending it. */
  send: (worker: number) => Promise<void>;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  const deadline = performance.now() + options.durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await options.send(worker);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return summarise(latencies, (performance.now() - started) / 1000);
}

/** Rate and latency percentiles of `latencies` (ms) measured over `seconds`. */
export function summarise(latencies: number[], seconds: number): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    latencies: sorted,
    requests: sorted.length,
    seconds,
    perSecond: sorted.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}

/** Several measurements of the same thing as one (rounds interleaved with other measurements). */
export function combine(results: LoadResult[]): LoadResult {
  return summarise(
    results.flatMap((r) => r.latencies),
    results.reduce((sum, r) => sum + r.seconds, 0),
  );
}
