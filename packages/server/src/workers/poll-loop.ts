/**
 * A worker loop: run `tick` until it reports no work, then sleep until the next poll or an explicit wake-up.
 * Wake-ups make same-process work start at once; polling finds work queued by other processes.
 */
export interface PollLoop {
  wake(): void;
  stop(): Promise<void>;
}

export function startPollLoop(options: {
  pollMs: number;
  /** Does one round of work; resolves true when it found work (so the loop goes again at once). */
  tick: () => Promise<boolean>;
  onError: (error: unknown) => void;
}): PollLoop {
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let pendingWake = false;

  const sleep = (): Promise<void> =>
    new Promise((resolve) => {
      if (pendingWake) {
        pendingWake = false;
        return resolve();
      }
      const timer = setTimeout(finish, options.pollMs);
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
      } catch (error) {
        options.onError(error);
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
