import type { ApiKey, StoreOps, Widget } from '@svc/core/store-kit';

/**
 * How long a process answers API key and widget lookups from memory: a key revoked, or a widget changed, by another
 * process takes effect here within this bound. Changes made through this store take effect at once.
 */
export const DEFAULT_LOOKUP_CACHE_MS = 5_000;

type Lookups = Pick<StoreOps, 'findApiKeyByHash' | 'getWidget'>;
/** Every operation that changes a key or a widget: each empties the cache. */
const WRITES = ['insertWidget', 'updateWidget', 'insertApiKey', 'setApiKeyCallbackSecret', 'revokeApiKey'] as const;
type Writes = Pick<StoreOps, (typeof WRITES)[number]>;

export interface LookupCache {
  invalidate(): void;
  lookups(ops: Lookups): Lookups;
  writes(ops: Writes, onWrite?: () => void): Writes;
}

/**
 * A deep copy of a record as rows.ts builds them (plain objects, arrays, dates, primitives), so a caller that changes
 * what it got changes nothing cached. Written out because `structuredClone` cost more than the rest of a lookup.
 */
function copyRecord<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map(copyRecord) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyRecord((value as Record<string, unknown>)[key]);
  return copy as T;
}

interface Entry<T> {
  value: T;
  until: number;
}

/**
 * The two lookups every authenticated turn makes (the key by its hash, then its widget), kept for `ttlMs`. Only found
 * records are kept, so a new key works at once. A generation counter keeps a lookup that raced a change from
 * storing what it read before it.
 */
export function createLookupCache(ttlMs: number, now: () => number = Date.now): LookupCache {
  const keys = new Map<string, Entry<ApiKey>>();
  const widgets = new Map<string, Entry<Widget>>();
  let generation = 0;

  function cached<T>(table: Map<string, Entry<T>>, id: string, load: () => Promise<T | null>): Promise<T | null> {
    const hit = table.get(id);
    if (hit && hit.until > now()) return Promise.resolve(copyRecord(hit.value));
    const started = generation;
    return load().then((value) => {
      if (value !== null && started === generation && ttlMs > 0) {
        if (table.size >= 10_000) table.clear();
        table.set(id, { value: copyRecord(value), until: now() + ttlMs });
      }
      return value;
    });
  }

  function invalidate(): void {
    generation++;
    keys.clear();
    widgets.clear();
  }

  return {
    invalidate,
    /** The lookups, answered from memory while fresh. */
    lookups(ops: Lookups): Lookups {
      return {
        findApiKeyByHash: (hash) => cached(keys, hash, () => ops.findApiKeyByHash(hash)),
        getWidget: (id) => cached(widgets, id, () => ops.getWidget(id)),
      };
    },
    /** The writes, each emptying the cache before and after it. */
    writes(ops: Writes, onWrite?: () => void): Writes {
      const wrapped: Partial<Record<keyof Writes, unknown>> = {};
      for (const name of WRITES) {
        const write = ops[name] as (...args: unknown[]) => Promise<unknown>;
        wrapped[name] = (...args: unknown[]) => {
          onWrite?.();
          invalidate();
          return write(...args).finally(invalidate);
        };
      }
      return wrapped as Writes;
    },
  };
}
