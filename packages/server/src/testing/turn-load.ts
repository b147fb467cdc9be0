/**
 * Load and checks for the turn pipeline's PostgreSQL tests (issue 9): concurrent sync turns over a real socket, and
 * what must hold afterwards in the database, read with plain SQL so the store under test does not grade itself.
 */
import pg from 'pg';

export interface TurnCall {
  sessionId: string;
  content: string;
  /** Which server to send it to (several processes share one database). */
  base: string;
  headers?: Record<string, string>;
}

export interface TurnResponse {
  call: TurnCall;
  status: number | 'network-error';
  creditsConsumed: number;
  content?: string;
}

/** Sends every call at once; a request cut off by a killed server counts as 'network-error'. */
export async function sendTurns(calls: TurnCall[], key: string): Promise<TurnResponse[]> {
  return Promise.all(
    calls.map(async (call): Promise<TurnResponse> => {
      try {
        const res = await fetch(`${call.base}/${call.sessionId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key, ...call.headers },
          body: JSON.stringify({ content: call.content }),
          signal: AbortSignal.timeout(55_000),
        });
        const body = (await res.json()) as { data?: { content?: string }; meta?: { creditsConsumed?: number } };
        return { call, status: res.status, creditsConsumed: body.meta?.creditsConsumed ?? 0, ...(body.data?.content ? { content: body.data.content } : {}) };
      } catch {
        return { call, status: 'network-error', creditsConsumed: 0 };
      }
    }),
  );
}

/** Creates `count` sessions through the API and returns their ids. */
export async function createSessions(base: string, key: string, count: number, headers: Record<string, string> = {}): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await fetch(base, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
        body: JSON.stringify({ visitorId: `load-${i}` }),
      });
      if (res.status !== 201) throw new Error(`create session: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { sessionId: string } }).data.sessionId;
    }),
  );
}

export interface StoredTurns {
  /** Per session, its history oldest first. */
  histories: Map<string, Array<{ id: string; role: string; content: string; seq: number }>>;
  jobs: Array<{ id: string; session_id: string; status: string; user_message_id: string; reply_message_id: string; content: string }>;
  balance: number;
}

/** Reads messages, jobs and the balance straight from the schema. */
export async function readTurns(databaseUrl: string, schema: string, accountId: string): Promise<StoredTurns> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const messages = await client.query<{ id: string; session_id: string; role: string; content: string; seq: number }>(
      `select id, session_id, role, content, seq from "${schema}".messages order by session_id, seq`,
    );
    const jobs = await client.query<StoredTurns['jobs'][number]>(
      `select id, session_id, status, user_message_id, reply_message_id, content from "${schema}".turn_jobs order by seq`,
    );
    const account = await client.query<{ balance: number }>(`select balance from "${schema}".accounts where id = $1`, [accountId]);
    const histories = new Map<string, Array<{ id: string; role: string; content: string; seq: number }>>();
    for (const row of messages.rows) {
      const list = histories.get(row.session_id) ?? [];
      list.push({ id: row.id, role: row.role, content: row.content, seq: row.seq });
      histories.set(row.session_id, list);
    }
    return { histories, jobs: jobs.rows, balance: account.rows[0]!.balance };
  } finally {
    await client.end();
  }
}

/**
 * What every session's history must look like: user, assistant, user, assistant…, seq 1, 2, 3… without gaps, each
 * reply answering the message right before it (the test agent answers "answer to <message>"). Returns the problems.
 */
export function historyProblems(histories: StoredTurns['histories']): string[] {
  const problems: string[] = [];
  for (const [sessionId, items] of histories) {
    items.forEach((item, index) => {
      if (item.seq !== index + 1) problems.push(`${sessionId}: seq ${item.seq} at position ${index + 1}`);
      const expected = index % 2 === 0 ? 'user' : 'assistant';
      if (item.role !== expected) problems.push(`${sessionId}: ${item.role} at position ${index + 1}`);
      if (item.role === 'assistant' && item.content !== `answer to ${items[index - 1]?.content}`) {
        problems.push(`${sessionId}: reply "${item.content}" follows "${items[index - 1]?.content}"`);
      }
    });
    if (items.length % 2 !== 0) problems.push(`${sessionId}: ends with an unanswered message`);
  }
  return problems;
}
