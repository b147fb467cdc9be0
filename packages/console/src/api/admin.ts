/** Every admin API call the console makes, named for what it does (DESIGN.md section 10). */
import { call, enc, list, query, upload } from './client.js';
import type {
  Analytics,
  ApiKey,
  Conversation,
  ConversationDetail,
  EvalRun,
  EvalSuite,
  CreatedKey,
  KnowledgeBase,
  KnowledgeDocument,
  Me,
  NewWebsite,
  Product,
  QuestionGroup,
  SearchHits,
  Source,
  SourceDetail,
  Theme,
  Webhook,
  Widget,
} from './types.js';

export interface ConversationFilters {
  widgetId?: string;
  status?: string;
  handoff?: string;
  rating?: string;
  from?: string;
  to?: string;
}

const evals = (widgetId: string): string => `/widgets/${enc(widgetId)}/evals`;
const conversation = (widgetId: string, sessionId: string): string => `/conversations/${enc(widgetId)}/${enc(sessionId)}`;

export const admin = {
  signIn: (email: string, password: string) => call<Me>('POST', '/sessions', { email, password }),
  signOut: () => call<null>('DELETE', '/sessions/current'),
  me: () => call<Me>('GET', '/me'),

  conversations: (filters: ConversationFilters, cursor?: string) =>
    list<Conversation>(`/conversations${query({ ...filters, cursor, limit: 50 })}`),
  conversation: (widgetId: string, sessionId: string) => call<ConversationDetail>('GET', conversation(widgetId, sessionId)),
  acceptHandoff: (widgetId: string, sessionId: string) => call<unknown>('POST', `${conversation(widgetId, sessionId)}/handoff/accept`),
  reply: (widgetId: string, sessionId: string, text: string) => call<unknown>('POST', `${conversation(widgetId, sessionId)}/messages`, { text }),
  releaseHandoff: (widgetId: string, sessionId: string) => call<unknown>('POST', `${conversation(widgetId, sessionId)}/handoff/release`),
  resolve: (widgetId: string, sessionId: string) => call<unknown>('POST', `${conversation(widgetId, sessionId)}/resolve`),

  widgets: () => list<Widget>('/widgets'),
  widget: (widgetId: string) => call<Widget>('GET', `/widgets/${enc(widgetId)}`),
  createWidget: (input: { name: string; greeting?: string; language?: string }) => call<Widget & { identitySecret?: string }>('POST', '/widgets', input),
  rotateIdentitySecret: (widgetId: string) => call<{ identitySecret: string }>('POST', `/widgets/${enc(widgetId)}/identity-secret`, {}),
  updateWidget: (widgetId: string, input: Partial<Pick<Widget, 'name' | 'greeting' | 'language' | 'knowledgeBaseIds' | 'confidenceThreshold'>>) =>
    call<Widget>('PATCH', `/widgets/${enc(widgetId)}`, input),
  setTheme: (widgetId: string, theme: Theme) => call<Widget>('PUT', `/widgets/${enc(widgetId)}/theme`, theme),
  setForms: (widgetId: string, forms: unknown) => call<Widget>('PUT', `/widgets/${enc(widgetId)}/forms`, forms),

  keys: () => list<ApiKey>('/keys'),
  createKey: (input: { name?: string; scopes: string[]; callbackUrl?: string }) => call<CreatedKey>('POST', '/keys', input),
  createPublicKey: (input: { widgetId: string; origins: string[] }) => call<CreatedKey>('POST', '/public-keys', input),
  revokeKey: (keyId: string) => call<unknown>('DELETE', `/keys/${enc(keyId)}`),
  rotateCallbackSecret: (keyId: string) => call<{ callbackSecret: string }>('POST', `/keys/${enc(keyId)}/callback-secret`),

  webhooks: () => list<Webhook>('/webhooks'),
  createWebhook: (input: { url: string; events?: string[] }) => call<Webhook>('POST', '/webhooks', input),
  deleteWebhook: (webhookId: string) => call<unknown>('DELETE', `/webhooks/${enc(webhookId)}`),
  rotateWebhookSecret: (webhookId: string) => call<{ secret: string }>('POST', `/webhooks/${enc(webhookId)}/secret`, {}),

  knowledgeBases: () => list<KnowledgeBase>('/knowledge-bases'),
  knowledgeBase: (kbId: string) => call<KnowledgeBase>('GET', `/knowledge-bases/${enc(kbId)}`),
  createKnowledgeBase: (name: string) => call<KnowledgeBase>('POST', '/knowledge-bases', { name }),
  importKnowledge: (kbId: string, file: unknown) => call<Record<string, number>>('POST', `/knowledge-bases/${enc(kbId)}/import`, file),
  products: (kbId: string, cursor?: string) => list<Product>(`/knowledge-bases/${enc(kbId)}/products${query({ cursor })}`),
  documents: (kbId: string) => list<KnowledgeDocument>(`/knowledge-bases/${enc(kbId)}/documents`),
  search: (kbId: string, query: string) => call<SearchHits>('POST', `/knowledge-bases/${enc(kbId)}/search`, { query }),
  sources: (kbId: string) => list<Source>(`/knowledge-bases/${enc(kbId)}/sources${query({ limit: 100 })}`),
  source: (kbId: string, sourceId: string) => call<SourceDetail>('GET', `/knowledge-bases/${enc(kbId)}/sources/${enc(sourceId)}`),
  addWebsite: (kbId: string, website: NewWebsite) => call<Source>('POST', `/knowledge-bases/${enc(kbId)}/sources`, website),
  syncSource: (kbId: string, sourceId: string) => call<Source>('POST', `/knowledge-bases/${enc(kbId)}/sources/${enc(sourceId)}/sync`),
  deleteSource: (kbId: string, sourceId: string) => call<unknown>('DELETE', `/knowledge-bases/${enc(kbId)}/sources/${enc(sourceId)}`),
  uploadFile: (kbId: string, file: File) => upload<Source>(`/knowledge-bases/${enc(kbId)}/files`, file),

  analytics: (params: { from?: string; to?: string; widgetId?: string }) => call<Analytics>('GET', `/analytics${query(params)}`),

  questions: (params: { widgetId?: string | undefined; status: string }) => list<QuestionGroup>(`/questions${query({ ...params, limit: 100 })}`),
  answerQuestion: (groupId: string, input: { title?: string; content: string; knowledgeBaseId?: string }) =>
    call<KnowledgeDocument>('POST', `/questions/${enc(groupId)}/answer`, input),
  dismissQuestion: (groupId: string) => call<QuestionGroup>('POST', `/questions/${enc(groupId)}/dismiss`),
  evalSuites: (widgetId: string) => call<EvalSuite[]>('GET', `${evals(widgetId)}/suites`),
  evalRuns: (widgetId: string, cursor?: string) => list<EvalRun>(`${evals(widgetId)}/runs${query({ cursor, limit: 20 })}`),
  evalRun: (widgetId: string, runId: string) => call<EvalRun>('GET', `${evals(widgetId)}/runs/${enc(runId)}`),
  startEvalRun: (widgetId: string, suite: Pick<EvalSuite, 'name' | 'cases'>) => call<EvalRun>('POST', `${evals(widgetId)}/runs`, suite),
  addEvalCase: (widgetId: string, suite: string, sessionId: string) => call<EvalSuite>('POST', `${evals(widgetId)}/suites/${enc(suite)}/cases`, { sessionId }),
};
