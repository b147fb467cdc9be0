/**
 * A worker loop: run `tick` until it reports no work, then sleep until the next poll or an explicit wake-up.
 * Wake-ups make same-process work start at once; polling finds work queued by other processes. Rounds that fail one
 * after another (the database is gone) back off: the sleep doubles from `pollMs` up to `maxBackoffMs`, and only the
 * first failure of a run and then one in `reportEvery` reach `onError`, so an outage is not a log line 8 times a second.
 */
export interface PollLoop {
  wake(): void;
  stop(): Promise<void>;
}

export function startPollLoop(options: {
  pollMs: number;
  /** Does one round of work; resolves true when it found work (so the loop goes again at once). */
  tick: () => Promise<boolean>;
  /** `failures`: how many rounds in a row have failed, this one included. */
  onError: (error: unknown, failures: number) => void;
  /** Longest sleep after failed rounds. Default 30 s (never shorter than `pollMs`). */
  maxBackoffMs?: number;
  /** After the first failure of a run, one failure in this many is reported. Default 20. */
  reportEvery?: number;
}): PollLoop {
  const maxBackoffMs = Math.max(options.pollMs, options.maxBackoffMs ?? 30_000);
  const reportEvery = options.reportEvery ?? 20;
  let failures = 0;
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let pendingWake = false;

  const sleep = (): Promise<void> =>
    new Promise((resolve) => {
      if (pendingWake) {
        pendingWake = false;
        return resolve();
      }
      const timer = setTimeout(finish, failures === 0 ? options.pollMs : Math.min(maxBackoffMs, options.pollMs * 2 ** failures));
      function finish(): void {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = finish;
    });

  const running = (async () => {
    while (!stopped) {
      let busy = false;
      try {
        busy = await options.tick();
        failures = 0;
      } catch (error) {
        failures += 1;
        if (failures === 1 || failures % reportEvery === 0) options.onError(error, failures);
      }
      if (!busy && !stopped) await sleep();
    }
  })();

  return {
    wake() {
      if (wakeUp) wakeUp();
      else pendingWake = true;
    },
    async stop() {
      stopped = true;
      wakeUp?.();
      await running;
    },
  };
}
