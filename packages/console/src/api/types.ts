/**
 * What the admin API answers (DESIGN.md section 10), as the console reads it. The session and message views are
 * the public API's (`@svc/core` schemas) plus the handoff fields (DESIGN.md section 6).
 */
import type { ConversationMessage, ConversationSummary, Conversation as CoreConversation, Product, SessionView, SourceDetail, SourceView, WidgetTheme, QuestionGroupView } from '@svc/core/schemas';

export type Role = 'owner' | 'agent';

export interface Operator {
  id: string;
  email: string;
  name: string;
  role: Role;
  accountId: string;
}

/** `POST /admin/v1/sessions` and `GET /admin/v1/me`. */
export interface Me {
  operator: Operator;
  csrfToken: string;
}

/** A conversation of the inbox: the session view (with its handoff) and, in lists, a preview of the last message. */
export type Conversation = SessionView & Partial<Pick<ConversationSummary, 'lastMessage'>>;
export type Message = ConversationMessage;
export type ConversationDetail = CoreConversation;

export type { Product };
/** A knowledge source (a website, an uploaded file, the manual documents) with its sync status. */
export type Source = SourceView;
export type { SourceDetail };
/** What the console sends to add a website. */
export interface NewWebsite {
  type: 'website';
  url: string;
  include?: string[];
  exclude?: string[];
  maxPages?: number;
  schedule?: 'off' | 'daily' | 'weekly';
}
/** A group of questions on the questions page (DESIGN.md section 12). */
export type QuestionGroup = QuestionGroupView;
/** The widget's look, as core validates it. */
export type Theme = WidgetTheme;

export interface Widget {
  id: string;
  name: string;
  greeting: string;
  language: string;
  timezone?: string;
  sessionTtlSeconds?: number;
  knowledgeBaseIds: string[];
  /** 0-1: below this retrieval confidence the agent says it does not know. */
  confidenceThreshold?: number;
  theme: Theme;
  forms: unknown[];
  createdAt?: string;
}

export interface ApiKey {
  id: string;
  kind: 'server' | 'public';
  prefix: string;
  name?: string | null;
  scopes: string[];
  widgetId?: string | null;
  allowedOrigins?: string[];
  callbackUrl?: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface CreatedKey {
  key: string;
  apiKey?: ApiKey;
  callbackSecret?: string;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  secret?: string;
  createdAt?: string;
}

export interface KnowledgeBase {
  id: string;
  name: string;
  createdAt: string;
  products?: number;
  documents?: number;
  /** With an embedding provider configured: how many passages have a vector of its model yet. */
  embeddings?: { model: string; embedded: number; passages: number } | null;
}

export interface KnowledgeDocument {
  id: string;
  title: string;
  url: string | null;
  createdAt: string;
}

export interface SearchHits {
  passages: {
    documentId: string;
    title: string;
    url: string | null;
    content: string;
    rank: number;
    score: number;
    confidence: number;
    retrievers: string[];
  }[];
  products: (Product & { rank: number; confidence: number })[];
  confidence: number;
}

export interface Analytics {
  conversationsPerDay: { date: string; count: number }[];
  resolutions: { agent: number; ended: number; operator: number; expired: number };
  ratings: Record<string, number>;
  handoffRate: number;
  creditsByBucket: { bucket: string; credits: number }[];
  totals: { conversations: number; messages: number; credits: number };
  turnsPerDay: (TurnStats & { date: string })[];
  turns: TurnStats;
}

/** The AI's replies by outcome, the feedback given and their rates (DESIGN.md section 12). */
export interface TurnStats {
  turns: number;
  answered: number;
  unanswered: number;
  handedOff: number;
  feedbackUp: number;
  feedbackDown: number;
  resolutionRate: number | null;
  unansweredRate: number | null;
}

export type { EvalCase, EvalCaseResult, EvalRunView as EvalRun, EvalSuiteView as EvalSuite } from '@svc/core/schemas';
