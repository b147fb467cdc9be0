import type { AgentMeters, TokenUsage } from './credits.js';
import type { MessageAction, MessageSource, Product, Session, StoredMessage, SurfacedForm, MessageOutcome, VisitorContext, Widget } from './domain.js';

/** Claims of a verified identity (spec 2.3): from an `identity` object or a verified widget token. */
export interface IdentityClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  [claim: string]: string | number | boolean | null | undefined;
}

export interface AgentRequest {
  widget: Widget;
  session: Session;
  /** Earlier messages of the session, oldest first, not including `message`. */
  history: StoredMessage[];
  /** The visitor's new message. */
  message: string;
  visitorContext: VisitorContext;
  /** Verified identity for this call only; never a visitorId. */
  identity: IdentityClaims | null;
  /** BCP 47 language to answer in. */
  language: string;
  /** IANA zone of the turn (request, else session, else widget). */
  timezone: string;
  /** The current time, from the engine's clock. */
  now: Date;
  /** Aborted when the caller gives up; an agent stops work and rejects. */
  signal: AbortSignal;
  /** Set when `message` is the visitor's accepted answers to this form (rendered readably), not free text. */
  formSubmission?: { formId: string; title: string };
  /**
   * Agents that can stream call this with each piece of reply text as it is written (Markdown, in order); the
   * final `AgentReply.content` must equal the concatenation of everything passed here. Optional: agents that do
   * not stream never call it and the whole content counts as one delta.
   */
  onDelta?: (text: string) => void;
}

/** The name the streaming seam (DESIGN.md section 4) uses for {@link AgentRequest}. */
export type AgentInput = AgentRequest;

export interface AgentReply {
  /** Markdown. */
  content: string;
  products: Product[];
  actions: MessageAction[];
  forms: SurfacedForm[];
  /** The agent judged the conversation concluded: the session becomes resolved. */
  sessionEnded: boolean;
  /**
   * The visitor asked for a person (DESIGN.md section 6): the session's handoff becomes `requested` and the AI stays
   * silent until an operator releases it. The reply's content tells the visitor a person will answer.
   */
  handoff?: boolean;
  /** The knowledge documents the answer used; empty when it used none (small talk, or it did not know). */
  sources?: MessageSource[];
  /**
   * What the turn came to (DESIGN.md section 12). Absent: the engine infers it (`handed_off`, `form`, `ended` or
   * `answered`); an agent that did not know says `unanswered`.
   */
  outcome?: MessageOutcome;
  /** The retrieval confidence the reply was decided on, 0-1; absent or null when the agent did not search. */
  confidence?: number | null;
  usage: TokenUsage;
  meters: AgentMeters;
}

/** The agent port: anything that turns a visitor message into a reply. */
export interface Agent {
  reply(request: AgentRequest): Promise<AgentReply>;
}
