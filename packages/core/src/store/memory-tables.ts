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
