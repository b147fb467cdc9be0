/** The part of Node's `AsyncLocalStorage` the stores use to know whether a call runs inside a transaction. */
export interface AsyncContext<T> {
  getStore(): T | undefined;
  run<R>(value: T, fn: () => R): R;
}

interface AsyncHooksModule {
  AsyncLocalStorage: new <T>() => AsyncContext<T>;
}

interface ProcessWithBuiltins {
  getBuiltinModule?: (id: string) => unknown;
}

/**
 * `AsyncLocalStorage` where the runtime has it (Node ≥ 20.16, Deno, Bun, workerd with nodejs_compat), else null.
 * Core must stay importable in browsers, so it never imports `node:async_hooks` statically: the module is looked up
 * at run time through `process.getBuiltinModule`, invisible to bundlers.
 */
export function createAsyncContext<T>(): AsyncContext<T> | null {
  const proc = (globalThis as { process?: ProcessWithBuiltins }).process;
  const hooks = proc?.getBuiltinModule?.('node:async_hooks') as AsyncHooksModule | undefined;
  return hooks ? new hooks.AsyncLocalStorage<T>() : null;
}
