import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api/client.js';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload(): void;
  /** Replaces the data in place (a live update), without a request. */
  set(update: (current: T | undefined) => T | undefined): void;
}

const asApiError = (error: unknown): ApiError =>
  error instanceof ApiError ? error : new ApiError(0, 'error', error instanceof Error ? error.message : String(error));

/** Loads `load()` when `deps` change; a late answer for older deps is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: ApiError | undefined; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const [round, setRound] = useState(0);
  const generation = useRef(0);
  useEffect(() => {
    const current = ++generation.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current === generation.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => current === generation.current && setState({ data: undefined, error: asApiError(error), loading: false }),
    );
  }, [...deps, round]);
  return {
    ...state,
    reload: useCallback(() => setRound((n) => n + 1), []),
    set: useCallback((update) => setState((previous) => ({ ...previous, data: update(previous.data) })), []),
  };
}

/** Runs a write, keeping its error (shown next to the form) and whether it is in flight. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>): {
  run(...args: A): Promise<R | undefined>;
  busy: boolean;
  error: ApiError | undefined;
  clear(): void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const run = async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await action(...args);
    } catch (caught) {
      setError(asApiError(caught));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, clear: () => setError(undefined) };
}
