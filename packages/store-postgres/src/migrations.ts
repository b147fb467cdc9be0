/**
 * Versioned schema migrations, applied in order by `runMigrations` and recorded in `schema_migrations`.
 * Never edit a released migration: add the next version.
 *
 * Conventions:
 * - ids that listings sort or page on are `collate "C"`, so their order is code-point order, the same as the
 *   memory store's, whatever the database's locale;
 * - arrays and objects are JSONB, instants `timestamptz`, credits and prices `double precision`;
 * - no foreign keys between entities: the engine owns those rules and the memory store has none, so every store
 *   behaves the same. Passages belong to their document, hence the one cascade.
 * - full-text vectors are stored generated columns in the default `english` configuration, with GIN indexes;
 *   queries in other languages compute vectors in their own configuration on the fly (see ops/search.ts).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const initial = /* sql */ `
create table accounts (
  id text primary key,
  name text not null,
  balance double precision not null,
  status text not null check (status in ('active', 'overdue')),
  created_at timestamptz not null
);

create table ledger_entries (
  id text collate "C" primary key,
  account_id text not null,
  operation text not null,
  widget_id text,
  session_id text,
  message_id text,
  credits jsonb not null,
  total double precision not null,
  created_at timestamptz not null
);
create index ledger_entries_by_account on ledger_entries (account_id, created_at desc, id desc);

create table widgets (
  id text collate "C" primary key,
  account_id text not null,
  name text not null,
  instructions text not null,
  greeting text not null,
  language text not null,
  timezone text not null,
  knowledge_base_ids jsonb not null,
  forms jsonb not null,
  session_ttl_seconds integer not null,
  theme jsonb not null,
  created_at timestamptz not null
);
create index widgets_by_account on widgets (account_id, created_at, id);

create table api_keys (
  id text collate "C" primary key,
  account_id text not null,
  kind text not null check (kind in ('secret', 'public')),
  prefix text not null,
  hash text not null unique,
  scopes jsonb not null,
  callback_url text,
  callback_secret text,
  reply_format text not null,
  widget_id text,
  allowed_origins jsonb not null,
  created_at timestamptz not null,
  revoked_at timestamptz
);
create index api_keys_by_account on api_keys (account_id, created_at, id);
create index api_keys_by_creation on api_keys (created_at, id);

create table knowledge_bases (
  id text primary key,
  account_id text not null,
  name text not null,
  created_at timestamptz not null
);

create table products (
  knowledge_base_id text not null,
  id text collate "C" not null,
  name text not null,
  price double precision not null,
  currency text,
  description text,
  url text,
  image_url text,
  search_vector tsvector generated always as (
    setweight(to_tsvector('english', name), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B')
  ) stored,
  primary key (knowledge_base_id, id)
);
create index products_search on products using gin (search_vector);

create table documents (
  knowledge_base_id text not null,
  id text collate "C" not null,
  title text not null,
  content text not null,
  url text,
  created_at timestamptz not null,
  primary key (knowledge_base_id, id)
);
create index documents_by_creation on documents (knowledge_base_id, created_at, id);

create table document_chunks (
  knowledge_base_id text not null,
  document_id text collate "C" not null,
  position integer not null,
  title text not null,
  content text not null,
  search_vector tsvector generated always as (
    setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')
  ) stored,
  primary key (knowledge_base_id, document_id, position),
  foreign key (knowledge_base_id, document_id) references documents (knowledge_base_id, id) on delete cascade
);
create index document_chunks_search on document_chunks using gin (search_vector);

create table sessions (
  widget_id text not null,
  id text not null,
  account_id text not null,
  visitor_id text not null,
  status text not null check (status in ('active', 'resolved', 'expired')),
  language text,
  timezone text,
  message_count integer not null,
  rating text check (rating in ('positive', 'negative')),
  created_at timestamptz not null,
  last_activity_at timestamptz not null,
  expires_at timestamptz not null,
  resolved_at timestamptz,
  pending_form_id text,
  -- Session ids are unique per widget only (spec 2.1): two widgets may use the same client-chosen id.
  primary key (widget_id, id)
);
create index sessions_due_to_expire on sessions (expires_at) where status = 'active';

create table messages (
  id text primary key,
  widget_id text not null,
  session_id text not null,
  seq integer not null,
  role text not null check (role in ('user', 'assistant')),
  content text not null,
  products jsonb not null,
  actions jsonb not null,
  forms jsonb not null,
  session_ended boolean not null,
  credits jsonb,
  usage jsonb,
  created_at timestamptz not null,
  -- Also the keyset index of history pages: (widget, session) then seq.
  constraint messages_session_seq unique (widget_id, session_id, seq)
);

create table visitors (
  account_id text not null,
  visitor_id text not null,
  context jsonb not null,
  updated_at timestamptz not null,
  primary key (account_id, visitor_id)
);

create table idempotency_records (
  scope text not null,
  key text not null,
  request_hash text not null,
  status integer not null,
  body text not null,
  created_at timestamptz not null,
  primary key (scope, key)
);
create index idempotency_records_by_age on idempotency_records (created_at);

create table settings (
  name text primary key,
  value text not null
);
`;

/**
 * Durable callback work (DESIGN.md section 5) and widget identity tokens.
 *
 * - `turn_jobs.seq` is the insertion order. A session's jobs are inserted under its session lock, so within a
 *   session it is the arrival order, which `created_at` (an application clock, possibly equal or skewed between
 *   instances) is not guaranteed to be. Claims gate each session on it.
 * - The partial indexes serve the claim queries: unfinished jobs oldest first, a session's earlier unfinished job,
 *   and pending deliveries by due time. Finished rows drop out of them.
 * - `deliveries.payload` is text, not jsonb: every attempt must send, and sign, the exact bytes first written.
 * - Existing widgets get no identity secret (they accept no identity tokens) and existing sessions no `sub`.
 */
const callbacksAndIdentity = /* sql */ `
alter table widgets add column identity_secrets jsonb not null default '[]';
alter table sessions add column identity_sub text;
create index knowledge_bases_by_account on knowledge_bases (account_id, created_at, id collate "C");

create table turn_jobs (
  id text collate "C" primary key,
  seq bigint generated always as identity,
  account_id text not null,
  key_id text not null,
  widget_id text not null,
  session_id text not null,
  user_message_id text not null,
  reply_message_id text not null,
  kind text not null check (kind in ('message', 'form')),
  identity jsonb,
  timezone text,
  status text not null check (status in ('queued', 'running', 'done', 'failed')),
  attempts integer not null,
  lease_owner text,
  lease_expires_at timestamptz,
  created_at timestamptz not null,
  finished_at timestamptz,
  error text
);
create index turn_jobs_unfinished on turn_jobs (created_at, seq) where status in ('queued', 'running');
create index turn_jobs_unfinished_by_session on turn_jobs (widget_id, session_id, seq) where status in ('queued', 'running');

create table deliveries (
  id text collate "C" primary key,
  account_id text not null,
  key_id text not null,
  widget_id text not null,
  session_id text not null,
  message_id text,
  event text not null check (event in ('message.completed', 'message.failed')),
  payload text not null,
  url text not null,
  status text not null check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null,
  next_attempt_at timestamptz not null,
  lease_owner text,
  lease_expires_at timestamptz,
  last_status integer,
  last_error text,
  created_at timestamptz not null,
  delivered_at timestamptz
);
create index deliveries_due on deliveries (next_attempt_at, created_at, id) where status = 'pending';
create index deliveries_by_creation on deliveries (created_at desc, id desc);
create index deliveries_by_status on deliveries (status, created_at desc, id desc);
create index deliveries_by_account on deliveries (account_id, created_at desc, id desc);
`;

/**
 * The durable turn pipeline (DESIGN.md section 3a): every turn, sync and stream included, is a job that carries the
 * visitor's message until its turn starts, and turn idempotency records point at their job.
 *
 * - Jobs queued by version 2 were callback jobs whose visitor message is already in the history: they keep mode
 *   `callback` and an empty `content`, and the turn's start finds their message by id.
 * - `turn_jobs_by_reply` makes the fixed reply id unique: a turn re-run after a crash still has one reply.
 */
const turnPipeline = /* sql */ `
alter table turn_jobs add column mode text not null default 'callback' check (mode in ('sync', 'stream', 'callback'));
alter table turn_jobs add column content text not null default '';
alter table turn_jobs add column answers jsonb;
create unique index turn_jobs_by_reply on turn_jobs (reply_message_id);
alter table idempotency_records add column job_id text;
`;

/**
 * Field hardening (issue 10).
 *
 * - `sessions.creator_key_kind`: sessions a server key created are never reachable with a public key. Existing
 *   rows: a public key can only ever have created sessions with server-generated ids (`sess_` and 22 base62
 *   characters, 128 random bits), so every other id was chosen by a server key; generated ids stay reachable by
 *   the widget that holds them (they cannot be guessed).
 * - `rate_limit_counters`: per client address and fixed window, shared by every instance; old windows are deleted
 *   by the limiter itself.
 * - `api_keys_public_origins`: CORS preflights ask "does any live public key allow this origin" through it
 *   instead of loading every key.
 */
const fieldHardening = /* sql */ `
alter table sessions add column creator_key_kind text not null default 'secret' check (creator_key_kind in ('secret', 'public'));
update sessions set creator_key_kind = 'public' where id ~ '^sess_[0-9A-Za-z]{22}$';
alter table sessions alter column creator_key_kind drop default;

create table rate_limit_counters (
  key text not null,
  window_start timestamptz not null,
  count integer not null,
  primary key (key, window_start)
);
create index rate_limit_counters_by_window on rate_limit_counters (window_start);

create index api_keys_public_origins on api_keys using gin (allowed_origins jsonb_path_ops) where kind = 'public' and revoked_at is null;
`;

/**
 * Lifecycle webhooks (issue 13, DESIGN.md section 5).
 *
 * - `webhook_endpoints`: account-level endpoints; `secret` is kept (not hashed) because it signs, as a key's callback
 *   secret is. After a rotation the replaced secret keeps signing until `previous_secret_expires_at`.
 * - `deliveries` carries lifecycle events too: `key_id` is null for them and `webhook_id` names the endpoint.
 */
const lifecycleWebhooks = /* sql */ `
create table webhook_endpoints (
  id text collate "C" primary key,
  account_id text not null,
  url text not null,
  events jsonb not null,
  secret text not null,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz not null
);
create index webhook_endpoints_by_account on webhook_endpoints (account_id, created_at, id);

alter table deliveries alter column key_id drop not null;
alter table deliveries add column webhook_id text;
alter table deliveries drop constraint deliveries_event_check;
alter table deliveries add constraint deliveries_event_check check (
  event in ('message.completed', 'message.failed', 'session.created', 'session.resolved', 'session.expired', 'session.rated')
);
`;

/**
 * Handoff to a person and the session event log (issue 13, DESIGN.md section 6).
 *
 * - `sessions.handoff`: null while the AI answers, else `{ state, since, operator }`; `creator_key_id` names the key
 *   whose callback URL receives operator replies (null for sessions created before this version: they get none).
 * - `messages.author`: `{ type: "operator", name }` on operator replies, null on every other message.
 * - `session_events`: the durable event log the session event stream and the account feed read, written in the
 *   transaction that changes the session. `txid` is the writing transaction: the account feed only returns events
 *   older than every transaction still open, so an event that commits late is never skipped by a reader that already
 *   saw a higher id (per session the row lock already orders them).
 * - `sessions_by_account`: the operators' conversation list, newest first; `session_events_by_time`: the sweep
 *   deletes events past their retention (a week).
 */
const handoffAndSessionEvents = /* sql */ `
alter table sessions add column handoff jsonb;
alter table sessions add column creator_key_id text;
alter table messages add column author jsonb;

create table session_events (
  id bigserial primary key,
  account_id text not null,
  widget_id text not null,
  session_id text not null,
  type text not null check (type in ('message.created', 'session.updated')),
  data jsonb not null,
  created_at timestamptz not null,
  txid xid8 not null default pg_current_xact_id()
);
create index session_events_by_session on session_events (widget_id, session_id, id);
create index session_events_by_account on session_events (account_id, id);
create index session_events_by_time on session_events (created_at);
create index sessions_by_account on sessions (account_id, created_at desc, widget_id desc, id desc);

alter table deliveries drop constraint deliveries_event_check;
alter table deliveries add constraint deliveries_event_check check (
  event in ('message.completed', 'message.failed', 'session.created', 'session.resolved', 'session.expired', 'session.rated', 'session.handoff')
);
`;

/**
 * Operators and console sessions (issue 14, DESIGN.md section 10).
 *
 * - `operators.email` is unique across the service (stored lower-cased): signing in names no account.
 * - `console_sessions.token_hash`: the SHA-256 of the cookie's token; the token itself is never stored.
 * - `api_keys.name`: what the owner calls a key (the console lists keys by it; operator replies sent with an admin
 *   key are signed with it).
 * - `login_failures`: failed sign-ins per email and per address in fixed 15-minute windows. Not the request
 *   limiter's `rate_limit_counters`, whose per-minute cleanup would forget them.
 */
const operators = /* sql */ `
create table operators (
  id text collate "C" primary key,
  account_id text not null,
  email text not null unique,
  name text not null,
  role text not null check (role in ('owner', 'agent')),
  password_hash text not null,
  created_at timestamptz not null,
  password_changed_at timestamptz not null
);
create index operators_by_account on operators (account_id, created_at, id);

create table console_sessions (
  id text collate "C" primary key,
  token_hash text not null unique,
  operator_id text not null,
  account_id text not null,
  csrf_token text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  last_seen_at timestamptz not null
);
create index console_sessions_by_operator on console_sessions (operator_id);
create index console_sessions_by_expiry on console_sessions (expires_at);

create table login_failures (
  key text not null,
  window_start timestamptz not null,
  count integer not null,
  primary key (key, window_start)
);
create index login_failures_by_window on login_failures (window_start);

alter table api_keys add column name text;
`;

/**
 * What the operator analytics count (DESIGN.md section 10), recorded on the session in the transaction that changes
 * it: the session event log keeps a week, analytics span a year.
 *
 * - `handed_off`: a handoff was ever requested or taken over (stays true after release); sessions with a handoff at
 *   upgrade count, earlier released ones cannot be told apart and do not.
 * - `resolved_by_operator`: an operator resolved the conversation.
 */
const sessionOutcomes = /* sql */ `
alter table sessions add column handed_off boolean not null default false;
alter table sessions add column resolved_by_operator boolean not null default false;
update sessions set handed_off = true where handoff is not null;
`;

/** DESIGN.md sections 11 and 12: what an answer used, what the turn came to, and the widget's abstention threshold. */
const answerQuality = /* sql */ `
alter table messages add column sources jsonb;
alter table messages add column outcome text check (outcome in ('answered', 'unanswered', 'handed_off', 'form', 'ended'));
alter table messages add column confidence double precision;
alter table widgets add column confidence_threshold double precision not null default 0.43;
`;

/**
 * PostgreSQL's parser reads "COVID-19" or "GTX-1080" as a word and a negative number (`covid`, `-19`), so a question
 * writing "COVID 19" never matched a title writing "COVID-19". Text is searched with a letter-hyphen-digit written as
 * two words, on both sides (ops/search.ts), as the memory store reads it.
 */
const hyphenatedNumbers = /* sql */ `
create function svc_search_text(value text) returns text
  language sql immutable parallel safe
  return regexp_replace(value, '([[:alpha:]])-([[:digit:]])', '\\1 \\2', 'g');

alter table document_chunks drop column search_vector;
alter table document_chunks add column search_vector tsvector generated always as (
  setweight(to_tsvector('english', svc_search_text(title)), 'A') || setweight(to_tsvector('english', svc_search_text(content)), 'B')
) stored;
create index document_chunks_search on document_chunks using gin (search_vector);

alter table products drop column search_vector;
alter table products add column search_vector tsvector generated always as (
  setweight(to_tsvector('english', svc_search_text(name)), 'A') || setweight(to_tsvector('english', svc_search_text(coalesce(description, ''))), 'B')
) stored;
create index products_search on products using gin (search_vector);
`;

/**
 * DESIGN.md section 11: passage vectors, one per passage and embedding model, float32 little-endian in a `bytea`
 * (neither this machine's PostgreSQL nor PGlite ships pgvector; the search over them is in process). Vectors and
 * embedding leases belong to their passage: replacing a document chunks it again, and its new passages need new
 * vectors. `knowledge_base_vectors.version` moves whenever a knowledge base's vectors change, so an in-process index
 * reloads only what changed.
 */
const passageVectors = /* sql */ `
create table passage_vectors (
  knowledge_base_id text not null,
  document_id text collate "C" not null,
  position integer not null,
  model text not null,
  vector bytea not null,
  primary key (knowledge_base_id, document_id, position, model),
  foreign key (knowledge_base_id, document_id, position)
    references document_chunks (knowledge_base_id, document_id, position) on delete cascade
);

create table passage_embedding_leases (
  knowledge_base_id text not null,
  document_id text collate "C" not null,
  position integer not null,
  model text not null,
  owner text not null,
  expires_at timestamptz not null,
  primary key (knowledge_base_id, document_id, position, model),
  foreign key (knowledge_base_id, document_id, position)
    references document_chunks (knowledge_base_id, document_id, position) on delete cascade
);
create index passage_embedding_leases_by_owner on passage_embedding_leases (owner, model);

create table knowledge_base_vectors (
  knowledge_base_id text primary key,
  version bigint not null
);
`;

/**
 * DESIGN.md section 11 "Sources": a knowledge base is filled by sources (`website`, `file`, its one `manual`), and
 * documents and products carry the source they came from. Pages of website sources are kept by canonical URL with
 * the validators, content hash, documents and links of their last read, and the sync (`generation`) that last
 * reached them. Documents stored before this version belong to their knowledge base's manual source.
 */
const knowledgeSources = /* sql */ `
create table knowledge_sources (
  id text collate "C" primary key,
  knowledge_base_id text not null,
  account_id text not null,
  type text not null check (type in ('website', 'file', 'manual')),
  url text,
  file_name text,
  include jsonb not null,
  exclude jsonb not null,
  max_pages integer,
  schedule text not null check (schedule in ('off', 'daily', 'weekly')),
  status text not null check (status in ('queued', 'syncing', 'ready', 'failed')),
  progress jsonb not null,
  last_sync_started_at timestamptz,
  last_sync_finished_at timestamptz,
  last_sync_error text,
  next_sync_at timestamptz,
  generation integer not null,
  lease_owner text,
  lease_expires_at timestamptz,
  created_at timestamptz not null
);
create index knowledge_sources_by_knowledge_base on knowledge_sources (knowledge_base_id, created_at, id);
create unique index knowledge_sources_one_manual on knowledge_sources (knowledge_base_id) where type = 'manual';
create index knowledge_sources_to_sync on knowledge_sources (next_sync_at) where type = 'website';

create table source_pages (
  source_id text collate "C" not null,
  url text collate "C" not null,
  state text not null check (state in ('pending', 'fetched', 'unchanged', 'failed', 'skipped', 'gone')),
  etag text,
  last_modified text,
  content_hash text,
  document_ids jsonb not null,
  links jsonb not null,
  status integer,
  error text,
  generation integer not null,
  updated_at timestamptz not null,
  primary key (source_id, url)
);
create index source_pages_by_state on source_pages (source_id, state, generation);
create index source_pages_by_hash on source_pages (source_id, content_hash);

alter table documents add column source_id text;
create index documents_by_source on documents (knowledge_base_id, source_id);
alter table products add column source_id text;
create index products_by_source on products (knowledge_base_id, source_id);

insert into knowledge_sources (id, knowledge_base_id, account_id, type, include, exclude, schedule, status, progress, generation, created_at)
select 'src_' || substr(md5(random()::text || k.id), 1, 22), k.id, k.account_id, 'manual', '[]', '[]', 'off', 'ready',
       '{"found":0,"fetched":0,"unchanged":0,"failed":0,"skipped":0}', 0,
       coalesce((select min(d.created_at) from documents d where d.knowledge_base_id = k.id), k.created_at)
  from knowledge_bases k
 where exists (select 1 from documents d where d.knowledge_base_id = k.id);

update documents d set source_id = s.id
  from knowledge_sources s
 where s.knowledge_base_id = d.knowledge_base_id and s.type = 'manual';
`;

/**
 * DESIGN.md section 12: per-message feedback and the questions page.
 *
 * - `messages.feedback`: a visitor's thumbs on an AI reply `{ rating, reason, comment, updatedAt }`, null until rated.
 * - `question_groups`: unanswered and thumbs-down questions grouped by similarity as they arrive; `terms` are the
 *   first question's (what later ones are compared with), `sessions` the newest askers (bounded), `daily` the count
 *   per UTC day `{ "YYYY-MM-DD": n }` (the trend). `question_groups_open` finds the groups a new question may join,
 *   `question_groups_by_account` pages the admin list.
 * - `message.feedback` joins the lifecycle events a delivery may carry.
 */
const feedbackAndQuestions = /* sql */ `
alter table messages add column feedback jsonb;

create table question_groups (
  id text collate "C" primary key,
  account_id text not null,
  widget_id text not null,
  kind text not null check (kind in ('unanswered', 'thumbs_down')),
  status text not null check (status in ('open', 'resolved', 'dismissed')),
  sample text not null,
  terms jsonb not null,
  count integer not null,
  first_asked_at timestamptz not null,
  last_asked_at timestamptz not null,
  sessions jsonb not null,
  daily jsonb not null,
  closed_at timestamptz,
  document_id text
);
create index question_groups_open on question_groups (widget_id, kind, last_asked_at desc) where status = 'open';
create index question_groups_by_account on question_groups (account_id, status, last_asked_at desc, id desc);

alter table deliveries drop constraint deliveries_event_check;
alter table deliveries add constraint deliveries_event_check check (
  event in ('message.completed', 'message.failed', 'session.created', 'session.resolved', 'session.expired', 'session.rated', 'session.handoff',
    'message.feedback')
);
`;

/**
 * DESIGN.md section 12: evaluation sessions, eval suites and runs, and the per-day analytics aggregates.
 *
 * - `sessions.purpose`: `evaluation` for the conversations an eval run holds (never billed, never in analytics or the
 *   conversations list); `sessions.concluded`: a reply marked `session_ended` exists (the agent ended it), kept by the
 *   messages trigger so the session's own row says how it ended.
 * - `daily_stats`: one row per account, widget and UTC day. The session counters (conversations, messages, how they
 *   ended, ratings, handoffs) are on the day the session was created, kept by a trigger from each change of the row
 *   (the new row's contribution minus the old one's); the turn counters on the day of the reply, kept by a trigger
 *   on `messages` in the transaction (the statement) that commits the turn. `feedback_up` / `feedback_down` are for
 *   per-message feedback to add to. `daily_credits`: the ledger per day, widget ('' for account-wide charges) and
 *   bucket, `*` the total. The analytics endpoint reads at most a row per day and widget, whatever the traffic.
 * - Existing data is counted in once, before the triggers are created.
 */
const evalsAndDailyAnalytics = /* sql */ `
alter table sessions add column purpose text not null default 'visitor' check (purpose in ('visitor', 'evaluation'));
alter table sessions add column concluded boolean not null default false;
update sessions s set concluded = true
 where exists (select 1 from messages m where m.widget_id = s.widget_id and m.session_id = s.id and m.session_ended);

create table eval_suites (
  widget_id text not null,
  name text collate "C" not null,
  account_id text not null,
  cases jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (widget_id, name)
);

create table eval_runs (
  id text collate "C" primary key,
  account_id text not null,
  widget_id text not null,
  suite_name text collate "C" not null,
  status text not null check (status in ('queued', 'running', 'passed', 'failed')),
  cases jsonb not null,
  regressions jsonb not null,
  previous_run_id text,
  error text,
  created_at timestamptz not null,
  finished_at timestamptz
);
create index eval_runs_by_widget on eval_runs (widget_id, id desc);
create index eval_runs_by_suite on eval_runs (widget_id, suite_name, id desc);

create table daily_stats (
  account_id text not null,
  widget_id text not null,
  day date not null,
  conversations integer not null default 0,
  messages integer not null default 0,
  resolved_agent integer not null default 0,
  resolved_ended integer not null default 0,
  resolved_operator integer not null default 0,
  expired integer not null default 0,
  rating_positive integer not null default 0,
  rating_negative integer not null default 0,
  sessions_handed_off integer not null default 0,
  turns integer not null default 0,
  turns_answered integer not null default 0,
  turns_unanswered integer not null default 0,
  turns_handed_off integer not null default 0,
  feedback_up integer not null default 0,
  feedback_down integer not null default 0,
  primary key (account_id, day, widget_id)
);

create table daily_credits (
  account_id text not null,
  day date not null,
  widget_id text not null,
  bucket text not null,
  credits double precision not null,
  primary key (account_id, day, widget_id, bucket)
);

create function svc_session_counts(s sessions) returns integer[]
  language sql immutable
  return case when s.purpose <> 'visitor' then array[0, 0, 0, 0, 0, 0, 0, 0, 0] else array[
    1,
    s.message_count,
    (s.status = 'resolved' and not s.resolved_by_operator and s.concluded)::int,
    (s.status = 'resolved' and not s.resolved_by_operator and not s.concluded)::int,
    (s.status = 'resolved' and s.resolved_by_operator)::int,
    (s.status = 'expired')::int,
    (s.rating is not distinct from 'positive')::int,
    (s.rating is not distinct from 'negative')::int,
    s.handed_off::int
  ] end;

insert into daily_stats (account_id, widget_id, day, conversations, messages, resolved_agent, resolved_ended, resolved_operator, expired,
                         rating_positive, rating_negative, sessions_handed_off)
select account_id, widget_id, (created_at at time zone 'UTC')::date,
       sum(c[1]), sum(c[2]), sum(c[3]), sum(c[4]), sum(c[5]), sum(c[6]), sum(c[7]), sum(c[8]), sum(c[9])
  from (select s.account_id, s.widget_id, s.created_at, svc_session_counts(s) as c from sessions s where s.purpose = 'visitor') as counted
 group by 1, 2, 3;

insert into daily_stats as t (account_id, widget_id, day, turns, turns_answered, turns_unanswered, turns_handed_off)
select s.account_id, m.widget_id, (m.created_at at time zone 'UTC')::date, count(*),
       count(*) filter (where m.outcome = 'answered'), count(*) filter (where m.outcome = 'unanswered'),
       count(*) filter (where m.outcome = 'handed_off')
  from messages m join sessions s on s.widget_id = m.widget_id and s.id = m.session_id
 where m.outcome is not null and s.purpose = 'visitor'
 group by 1, 2, 3
on conflict (account_id, day, widget_id) do update
   set turns = excluded.turns, turns_answered = excluded.turns_answered, turns_unanswered = excluded.turns_unanswered,
       turns_handed_off = excluded.turns_handed_off;

insert into daily_stats as t (account_id, widget_id, day, feedback_up, feedback_down)
select s.account_id, m.widget_id, (m.created_at at time zone 'UTC')::date,
       count(*) filter (where m.feedback->>'rating' = 'up'), count(*) filter (where m.feedback->>'rating' = 'down')
  from messages m join sessions s on s.widget_id = m.widget_id and s.id = m.session_id
 where m.feedback is not null and s.purpose = 'visitor'
 group by 1, 2, 3
on conflict (account_id, day, widget_id) do update set feedback_up = excluded.feedback_up, feedback_down = excluded.feedback_down;

insert into daily_credits (account_id, day, widget_id, bucket, credits)
select account_id, (created_at at time zone 'UTC')::date, coalesce(widget_id, ''), b.key, sum(b.value::double precision)
  from ledger_entries, jsonb_each_text(credits) as b
 group by 1, 2, 3, 4;
insert into daily_credits (account_id, day, widget_id, bucket, credits)
select account_id, (created_at at time zone 'UTC')::date, coalesce(widget_id, ''), '*', sum(total)
  from ledger_entries
 group by 1, 2, 3;

create function svc_session_stats() returns trigger language plpgsql as $fn$
declare
  n integer[] := array[0, 0, 0, 0, 0, 0, 0, 0, 0];
  o integer[] := array[0, 0, 0, 0, 0, 0, 0, 0, 0];
  k_account text;
  k_widget text;
  k_day date;
begin
  if tg_op <> 'DELETE' then
    n := svc_session_counts(new);
    k_account := new.account_id; k_widget := new.widget_id; k_day := (new.created_at at time zone 'UTC')::date;
  end if;
  if tg_op <> 'INSERT' then
    o := svc_session_counts(old);
    k_account := coalesce(k_account, old.account_id); k_widget := coalesce(k_widget, old.widget_id);
    k_day := coalesce(k_day, (old.created_at at time zone 'UTC')::date);
  end if;
  if n = o then return null; end if;
  insert into daily_stats as t (account_id, widget_id, day, conversations, messages, resolved_agent, resolved_ended, resolved_operator,
                                expired, rating_positive, rating_negative, sessions_handed_off)
  values (k_account, k_widget, k_day, n[1] - o[1], n[2] - o[2], n[3] - o[3], n[4] - o[4], n[5] - o[5], n[6] - o[6], n[7] - o[7],
          n[8] - o[8], n[9] - o[9])
  on conflict (account_id, day, widget_id) do update
     set conversations = t.conversations + excluded.conversations, messages = t.messages + excluded.messages,
         resolved_agent = t.resolved_agent + excluded.resolved_agent, resolved_ended = t.resolved_ended + excluded.resolved_ended,
         resolved_operator = t.resolved_operator + excluded.resolved_operator, expired = t.expired + excluded.expired,
         rating_positive = t.rating_positive + excluded.rating_positive, rating_negative = t.rating_negative + excluded.rating_negative,
         sessions_handed_off = t.sessions_handed_off + excluded.sessions_handed_off;
  return null;
end
$fn$;
create trigger sessions_daily_stats after insert or update or delete on sessions for each row execute function svc_session_stats();

create function svc_message_stats() returns trigger language plpgsql as $fn$
declare
  s record;
begin
  if new.session_ended then
    update sessions set concluded = true where widget_id = new.widget_id and id = new.session_id and not concluded;
  end if;
  if new.outcome is null then return null; end if;
  select account_id, purpose into s from sessions where widget_id = new.widget_id and id = new.session_id;
  if not found or s.purpose <> 'visitor' then return null; end if;
  insert into daily_stats as t (account_id, widget_id, day, turns, turns_answered, turns_unanswered, turns_handed_off)
  values (s.account_id, new.widget_id, (new.created_at at time zone 'UTC')::date, 1, (new.outcome = 'answered')::int,
          (new.outcome = 'unanswered')::int, (new.outcome = 'handed_off')::int)
  on conflict (account_id, day, widget_id) do update
     set turns = t.turns + 1, turns_answered = t.turns_answered + excluded.turns_answered,
         turns_unanswered = t.turns_unanswered + excluded.turns_unanswered, turns_handed_off = t.turns_handed_off + excluded.turns_handed_off;
  return null;
end
$fn$;
create trigger messages_daily_stats after insert on messages for each row
  when (new.session_ended or new.outcome is not null) execute function svc_message_stats();

create function svc_ledger_stats() returns trigger language plpgsql as $fn$
begin
  insert into daily_credits as t (account_id, day, widget_id, bucket, credits)
  select new.account_id, (new.created_at at time zone 'UTC')::date, coalesce(new.widget_id, ''), b.key, b.value::double precision
    from jsonb_each_text(new.credits) as b
   union all
  select new.account_id, (new.created_at at time zone 'UTC')::date, coalesce(new.widget_id, ''), '*', new.total
  on conflict (account_id, day, widget_id, bucket) do update set credits = t.credits + excluded.credits;
  return null;
end
$fn$;
create trigger ledger_daily_credits after insert on ledger_entries for each row execute function svc_ledger_stats();

-- A visitor's thumbs (set, changed or taken back) move the counts of the rated reply's day by the difference.
create function svc_feedback_stats() returns trigger language plpgsql as $fn$
declare
  s record;
  up integer := (coalesce(new.feedback->>'rating', '') = 'up')::int - (coalesce(old.feedback->>'rating', '') = 'up')::int;
  down integer := (coalesce(new.feedback->>'rating', '') = 'down')::int - (coalesce(old.feedback->>'rating', '') = 'down')::int;
begin
  if up = 0 and down = 0 then return null; end if;
  select account_id, purpose into s from sessions where widget_id = new.widget_id and id = new.session_id;
  if not found or s.purpose <> 'visitor' then return null; end if;
  insert into daily_stats as t (account_id, widget_id, day, feedback_up, feedback_down)
  values (s.account_id, new.widget_id, (new.created_at at time zone 'UTC')::date, up, down)
  on conflict (account_id, day, widget_id) do update
     set feedback_up = t.feedback_up + excluded.feedback_up, feedback_down = t.feedback_down + excluded.feedback_down;
  return null;
end
$fn$;
create trigger messages_feedback_stats after update of feedback on messages for each row
  when (old.feedback is distinct from new.feedback) execute function svc_feedback_stats();
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'callbacks_and_identity', sql: callbacksAndIdentity },
  { version: 3, name: 'turn_pipeline', sql: turnPipeline },
  { version: 4, name: 'field_hardening', sql: fieldHardening },
  { version: 5, name: 'lifecycle_webhooks', sql: lifecycleWebhooks },
  { version: 6, name: 'handoff_and_session_events', sql: handoffAndSessionEvents },
  { version: 7, name: 'operators', sql: operators },
  { version: 8, name: 'session_outcomes', sql: sessionOutcomes },
  { version: 9, name: 'answer_quality', sql: answerQuality },
  { version: 10, name: 'hyphenated_numbers', sql: hyphenatedNumbers },
  { version: 11, name: 'passage_vectors', sql: passageVectors },
  { version: 12, name: 'knowledge_sources', sql: knowledgeSources },
  { version: 13, name: 'feedback_and_questions', sql: feedbackAndQuestions },
  { version: 14, name: 'evals_and_daily_analytics', sql: evalsAndDailyAnalytics },
];
