/**
 * The memory store's tables: maps whose writes are recorded in an undo journal while a transaction is open, so a
 * failed transaction can put every row back exactly as it was. Rows are never mutated in place, only replaced, which
 * is what makes "remember the old row" a complete undo.
 */

export class Journal {
  #undo: Array<() => void> | null = null;

  get active(): boolean {
    return this.#undo !== null;
  }

  begin(): void {
    this.#undo = [];
  }

  /** Position to roll back to; used by nested transactions, which behave like savepoints. */
  mark(): number {
    return this.#undo?.length ?? 0;
  }

  record(undo: () => void): void {
    this.#undo?.push(undo);
  }

  /** Undoes, newest first, every write made since `mark`. */
  rollbackTo(mark: number): void {
    const undo = this.#undo;
    if (undo === null) return;
    while (undo.length > mark) undo.pop()?.();
  }

  end(): void {
    this.#undo = null;
  }
}

export class Table<V> {
  readonly #rows = new Map<string, V>();
  readonly #journal: Journal;

  constructor(journal: Journal) {
    this.#journal = journal;
  }

  get(key: string): V | undefined {
    return this.#rows.get(key);
  }

  has(key: string): boolean {
    return this.#rows.has(key);
  }

  values(): IterableIterator<V> {
    return this.#rows.values();
  }

  entries(): IterableIterator<[string, V]> {
    return this.#rows.entries();
  }

  set(key: string, value: V): void {
    this.#remember(key);
    this.#rows.set(key, value);
  }

  delete(key: string): boolean {
    if (!this.#rows.has(key)) return false;
    this.#remember(key);
    this.#rows.delete(key);
    return true;
  }

  #remember(key: string): void {
    if (!this.#journal.active) return;
    const rows = this.#rows;
    if (rows.has(key)) {
      const previous = rows.get(key) as V;
      this.#journal.record(() => rows.set(key, previous));
    } else {
      this.#journal.record(() => rows.delete(key));
    }
  }
}

/** Composite keys for tables keyed by several ids; the separator cannot occur in an id. */
export function key(...parts: Array<string | number>): string {
  return parts.join('\u0000');
}

/** Stored rows are private: callers get and give copies, so mutating a returned object changes nothing stored. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

export function duplicate(entity: string, id: string): Error {
  return new Error(`Duplicate ${entity} id ${id}: it already exists`);
}

export function copyOrNull<T>(value: T | undefined): T | null {
  return value === undefined ? null : copy(value);
}

/** Patches name only the fields to change: a key present with `undefined` means "not given", as in SQL stores. */
export function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Code-unit order, the same as the `COLLATE "C"` id columns of the SQL stores. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Oldest first, ties broken by id so listings are stable. */
export function byCreation(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || compareIds(a.id, b.id);
}
