import type { AgentRequest, KnowledgeRetriever, Widget } from '@svc/core/store-kit';
import type { ToolSet } from 'ai';
import { createEndConversationTool, createRequestHandoffTool, createShowFormTool } from './action-tools.js';
import { createKnowledgeTools } from './knowledge-tools.js';
import type { TurnLog } from './turn-log.js';

/** Tool names the model sees; the stop conditions and the prompt refer to them too. */
export const TOOL = {
  searchKnowledge: 'search_knowledge',
  searchProducts: 'search_products',
  showForm: 'show_form',
  endConversation: 'end_conversation',
  requestHandoff: 'request_handoff',
} as const;

export interface ToolOffer {
  /** The widget has knowledge bases to search. */
  search: boolean;
  /** The widget has forms to show. */
  forms: boolean;
}

/**
 * Which tools a widget gets. A tool that can only come back empty (no knowledge base) or cannot be called
 * validly (no form) would cost steps and confuse the model, so it is not offered at all.
 */
export function toolOffer(widget: Widget): ToolOffer {
  return { search: widget.knowledgeBaseIds.length > 0, forms: widget.forms.length > 0 };
}

export interface TurnToolsInput {
  request: AgentRequest;
  knowledge: KnowledgeRetriever;
  searchLimit: number;
  log: TurnLog;
}

/** The tools of one turn, bound to its request and recording into its log. */
export function createTurnTools(input: TurnToolsInput): ToolSet {
  const { request, log } = input;
  const offer = toolOffer(request.widget);
  const tools: ToolSet = {};
  if (offer.search) {
    const knowledgeTools = createKnowledgeTools({ request, knowledge: input.knowledge, limit: input.searchLimit, log });
    tools[TOOL.searchKnowledge] = knowledgeTools.searchKnowledge;
    tools[TOOL.searchProducts] = knowledgeTools.searchProducts;
  }
  const showForm = createShowFormTool(request.widget.forms, log);
  if (showForm !== null) tools[TOOL.showForm] = showForm;
  tools[TOOL.endConversation] = createEndConversationTool(log);
  tools[TOOL.requestHandoff] = createRequestHandoffTool(log);
  return tools;
}
