/** How a patchable entity field maps to its column. */
export interface ColumnSpec {
  column: string;
  /** Sent as JSON text and cast to jsonb. */
  json?: boolean;
}

/**
 * The `set` list of an update from the defined fields of `patch` that `columns` knows, numbering parameters from
 * `firstParam`. Fields present with `undefined` are "not given", as in the memory store. Null when nothing is set.
 * Column names come only from `columns`, never from the patch, so a patch cannot inject SQL.
 */
export function buildSet(
  patch: object,
  columns: Readonly<Record<string, ColumnSpec>>,
  firstParam: number,
): { sql: string; params: unknown[] } | null {
  const assignments: string[] = [];
  const params: unknown[] = [];
  const values = patch as Record<string, unknown>;
  for (const [field, spec] of Object.entries(columns)) {
    const value = values[field];
    if (value === undefined) continue;
    // SQL null for null, not the JSON value null, so `is null` tests keep meaning "not set".
    params.push(spec.json && value !== null ? JSON.stringify(value) : value);
    assignments.push(`${spec.column} = $${firstParam + params.length - 1}${spec.json ? '::jsonb' : ''}`);
  }
  return assignments.length > 0 ? { sql: assignments.join(', '), params } : null;
}
