import type { Agent, AgentReply, AgentRequest, FormDefinition, MessageAction, MessageOutcome, MessageSource, SurfacedForm, Widget } from '@svc/core/store-kit';
import { zeroMeters } from '@svc/core/store-kit';
import { retrieverOf, type Knowledge } from './knowledge.js';
import type { KnowledgeRetriever } from '@svc/core/store-kit';
import { abortable } from './abort.js';
import { composeAnswer, productText } from './compose-answer.js';
import { deltaSinkOf, sentencePieces } from './deltas.js';
import { findTriggeredForm, firstTrigger, surfaceForm } from './forms.js';
import { escapeMarkdown } from './markdown.js';
import { phrasesFor, primaryLanguage } from './phrases.js';
import { asksForPerson } from './handoff-request.js';
import type { Phrases } from './phrases.js';
import { detectSmallTalk, questionPart } from './small-talk.js';
import { measureUsage } from './tokens.js';

export interface LocalAgentOptions {
  /**
   * Where answers come from: the service's retrieval (`createRetriever`, with the providers the deployment has), or
   * a store, searched with full text alone.
   */
  knowledge: Knowledge;
  /** Passages considered per question. Default 3. */
  maxPassages?: number;
  /** Products shown per reply. Default 3. */
  maxProducts?: number;
  /** Sentences quoted from the best passage. Default 3. */
  maxSentences?: number;
  /** Earlier messages counted as read, like the context window of a model. Default 10. */
  historyWindow?: number;
}

type Settings = Required<Omit<LocalAgentOptions, 'knowledge'>> & { knowledge: KnowledgeRetriever };

/** Defaults resolved in one place; `??` so that an explicit 0 is honoured rather than replaced. */
function resolveSettings(options: LocalAgentOptions): Settings {
  return {
    knowledge: retrieverOf(options.knowledge),
    maxPassages: options.maxPassages ?? 3,
    maxProducts: options.maxProducts ?? 3,
    maxSentences: options.maxSentences ?? 3,
    historyWindow: options.historyWindow ?? 10,
  };
}

interface Draft {
  content: string;
  products?: AgentReply['products'];
  forms?: SurfacedForm[];
  sessionEnded?: boolean;
  handoff?: boolean;
  sources?: MessageSource[];
  actions?: MessageAction[];
  outcome?: MessageOutcome;
  confidence?: number;
  /** Retrieved texts the agent read, beyond the instructions, history and message. */
  retrieved?: string[];
  meters?: Partial<AgentReply['meters']>;
}

/**
 * The offline agent (DESIGN.md section 6): no model, answers from the widget's knowledge bases. In order, a
 * message that names a form trigger surfaces that form, a request for a person hands the conversation over
 * (DESIGN.md section 6), a greeting is greeted, thanks are acknowledged, a
 * farewell concludes the session, and anything else is looked up. Deterministic: the same request and the
 * same knowledge give the same reply, and tokens are counted with the o200k_base tokenizer. A caller that
 * streams (`onDelta`) receives the content sentence by sentence, the pieces concatenating to it exactly.
 *
 * @example
 * const agent = createLocalAgent({ knowledge: store });
 * const reply = await agent.reply(request); // reply.content: Markdown quoting the best passage, with its source
 */
export function createLocalAgent(options: LocalAgentOptions): Agent {
  const settings = resolveSettings(options);
  return {
    async reply(request) {
      request.signal.throwIfAborted();
      const draft = await draftReply(request, settings);
      request.signal.throwIfAborted();
      const reply = finish(request, settings, draft);
      const sink = deltaSinkOf(request);
      if (sink !== undefined) for (const piece of sentencePieces(reply.content)) sink(piece);
      return reply;
    },
  };
}

async function draftReply(request: AgentRequest, settings: Settings): Promise<Draft> {
  const { widget, message } = request;
  const phrases = phrasesFor(request.language);
  // Submitted answers are not a new question: acknowledge them rather than reading them for triggers.
  if (request.formSubmission) return { content: phrases.formReceived(escapeMarkdown(request.formSubmission.title)) };
  const form = findTriggeredForm(widget.forms, message);
  if (form !== null) return formDraft(form, phrases);
  // After the widget's own form triggers, which its owner may have set to "talk to a person" on purpose.
  if (asksForPerson(message)) return { content: phrases.handoff, handoff: true };
  switch (detectSmallTalk(message, [widget.name])) {
    case 'greeting':
      return { content: greeting(widget, request.language, phrases) };
    case 'thanks':
      return { content: phrases.thanks };
    case 'farewell':
      return { content: phrases.farewell, sessionEnded: true };
    case null:
      return answerDraft(request, settings, phrases);
  }
}

function formDraft(form: FormDefinition, phrases: Phrases): Draft {
  return { content: phrases.formLeadIn(escapeMarkdown(form.title)), forms: [surfaceForm(form)] };
}

/**
 * The widget's own greeting is written in the widget's language; for a visitor speaking another one the
 * agent's default greeting, in the visitor's language, is the better welcome.
 */
function greeting(widget: Widget, language: string, phrases: Phrases): string {
  const own = widget.greeting.trim();
  const sameLanguage = primaryLanguage(widget.language) === primaryLanguage(language);
  const opening = own !== '' && sameLanguage ? own : phrases.greeting(escapeMarkdown(widget.name));
  return `${opening}\n\n${phrases.greetingHint}`;
}

async function answerDraft(request: AgentRequest, settings: Settings, phrases: Phrases): Promise<Draft> {
  const { widget } = request;
  const message = questionPart(request.message);
  // A widget without knowledge bases has nothing to search: an honest miss, and no retrieval to bill.
  const retrieval = await abortable(
    settings.knowledge.retrieve({
      knowledgeBaseIds: widget.knowledgeBaseIds,
      text: message,
      language: request.language,
      limit: Math.max(1, settings.maxPassages, settings.maxProducts),
      signal: request.signal,
    }),
    request.signal,
  );
  const answer = composeAnswer({
    question: message,
    retrieval,
    phrases,
    language: request.language,
    maxPassages: settings.maxPassages,
    maxProducts: settings.maxProducts,
    maxSentences: settings.maxSentences,
    formTrigger: firstTrigger(widget.forms),
    threshold: widget.confidenceThreshold,
  });
  return {
    content: answer.content,
    products: answer.products,
    sources: answer.sources,
    actions: answer.actions,
    outcome: answer.answered ? 'answered' : 'unanswered',
    confidence: answer.confidence,
    retrieved: [
      ...retrieval.passages.map((passage) => passage.content),
      ...retrieval.products.map((hit) => productText(hit.product)),
    ],
    meters: retrieval.meters,
  };
}

function finish(request: AgentRequest, settings: Settings, draft: Draft): AgentReply {
  const recent = settings.historyWindow > 0 ? request.history.slice(-settings.historyWindow) : [];
  const read = [
    request.widget.instructions,
    ...recent.map((item) => item.content),
    request.message,
    ...(draft.retrieved ?? []),
  ];
  return {
    content: draft.content,
    products: draft.products ?? [],
    actions: draft.actions ?? [],
    forms: draft.forms ?? [],
    sessionEnded: draft.sessionEnded ?? false,
    ...(draft.handoff ? { handoff: true } : {}),
    sources: draft.sources ?? [],
    ...(draft.outcome === undefined ? {} : { outcome: draft.outcome }),
    confidence: draft.confidence ?? null,
    usage: measureUsage(read, draft.content),
    meters: { ...zeroMeters(), ...draft.meters },
  };
}
