/**
 * Operators: the people who run an account from the console (DESIGN.md section 10), their console sessions and
 * the counters that throttle their sign-in attempts.
 */

export const OPERATOR_ROLES = ['owner', 'agent'] as const;
/** `owner` may do everything in its account; `agent` only works conversations (take over, reply, resolve). */
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export interface Operator {
  id: string;
  accountId: string;
  /** Trimmed and lower-cased; unique across the whole service, since signing in names no account. */
  email: string;
  name: string;
  role: OperatorRole;
  /** A self-describing password hash (algorithm, parameters, salt, digest); never leaves the store and core. */
  passwordHash: string;
  createdAt: Date;
  passwordChangedAt: Date;
}

export interface ConsoleSession {
  id: string;
  /** Hex SHA-256 of the cookie's token: the token itself is never stored, so a database leak signs nobody in. */
  tokenHash: string;
  operatorId: string;
  accountId: string;
  /** Sent back in `X-CSRF-Token` on every cookie-authenticated write. */
  csrfToken: string;
  createdAt: Date;
  /** Slides forward with use, never past the session's absolute lifetime. */
  expiresAt: Date;
  lastSeenAt: Date;
}

export interface OperatorOps {
  /** Inserts the operator; false (and nothing written) when another operator has the email. A repeated id throws. */
  insertOperator(operator: Operator): Promise<boolean>;
  getOperator(id: string): Promise<Operator | null>;
  /** By the normalised email (see {@link Operator.email}). */
  findOperatorByEmail(email: string): Promise<Operator | null>;
  /** One account's operators, oldest first. */
  listOperators(accountId: string): Promise<Operator[]>;
  /** False when the operator does not exist. */
  setOperatorPassword(id: string, passwordHash: string, changedAt: Date): Promise<boolean>;

  insertConsoleSession(session: ConsoleSession): Promise<void>;
  findConsoleSession(tokenHash: string): Promise<ConsoleSession | null>;
  /** Records use of a session and moves its expiry; false when it no longer exists. */
  touchConsoleSession(id: string, lastSeenAt: Date, expiresAt: Date): Promise<boolean>;
  deleteConsoleSession(id: string): Promise<boolean>;
  /** Ends every session of the operator except `keepId`'s; returns how many ended. */
  deleteOperatorSessions(operatorId: string, keepId?: string): Promise<number>;
  /** Deletes sessions that expired at or before `now`; returns how many. */
  deleteExpiredConsoleSessions(now: Date): Promise<number>;

  /** Adds one failed sign-in to `key` (an email or an address) for the window starting at `windowStart`; returns the count. Atomic. */
  recordLoginFailure(key: string, windowStart: Date): Promise<number>;
  /** Failed sign-ins of `key` in the window starting at `windowStart` (0 when none). */
  countLoginFailures(key: string, windowStart: Date): Promise<number>;
  /** Deletes the counters of windows that started before `before`; returns how many. */
  deleteLoginFailuresBefore(before: Date): Promise<number>;
}
