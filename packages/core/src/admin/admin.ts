import { createRetriever } from '../retrieval/retrieve.js';
import type { Account, ApiKey, KnowledgeBase, Widget } from '../domain.js';
import { systemClock, type Clock } from '../clock.js';
import { defaultIds, type Ids } from '../ids.js';
import type { Deleted, DocumentView, KnowledgeBaseDetail, KnowledgeBaseView, KnowledgeSearchResult } from '../schemas/knowledge.js';
import type { SourceDetail, SourceView } from '../schemas/sources.js';
import type { UploadedFile } from '../sources/site-reader.js';
import type { ProductInput } from '../schemas/product.js';
import type { Delivery, DeliveryStatus } from '../store/turn-job-store.js';
import type { Store } from '../store/store.js';
import type { WebhookEndpoint } from '../store/webhook-store.js';
import * as accounts from './accounts.js';
import * as usage from './analytics.js';
import type { AccountScope, AdminContext } from './context.js';
import * as deliveries from './deliveries.js';
import * as keys from './keys.js';
import * as knowledge from './knowledge.js';
import * as webhooks from './webhooks.js';
import * as questions from './questions.js';
import type { QuestionFilters, QuestionGroupView } from '../schemas/questions.js';
import * as widgets from './widgets.js';

export interface AdminOptions {
  store: Store;
  clock?: Clock;
  ids?: Ids;
  /** The address policy for callback and webhook URLs (the server's); see {@link AdminContext.urlProblem}. */
  urlProblem: (url: URL) => string | null;
}

/**
 * Every operator operation (DESIGN.md section 10), for the `svc` CLI, the admin API and the console alike. An
 * operation on an account's resource takes the caller's {@link AccountScope} first.
 */
export interface Admin {
  createAccount(input: { name: string; credits?: number }): Promise<Account>;
  setCredits(accountId: string, balance: number): Promise<Account>;
  getAccount(accountId: string): Promise<accounts.AccountView>;

  createWidget(input: widgets.CreateWidgetInput): Promise<Widget>;
  listWidgets(accountId: string): Promise<Widget[]>;
  getWidget(scope: AccountScope, widgetId: string): Promise<Widget>;
  updateWidget(scope: AccountScope, widgetId: string, input: widgets.WidgetSettings): Promise<Widget>;
  setWidgetTheme(scope: AccountScope, widgetId: string, theme: unknown): Promise<Widget>;
  setWidgetForms(scope: AccountScope, widgetId: string, forms: unknown): Promise<Widget>;
  rotateIdentitySecret(scope: AccountScope, widgetId: string, graceSeconds: number): Promise<{ widget: Widget; identitySecret: string }>;

  createApiKey(input: keys.CreateKeyInput): Promise<keys.CreatedKey>;
  createPublicKey(scope: AccountScope, input: keys.CreatePublicKeyInput): Promise<keys.CreatedKey>;
  /** The demo page's public key for `origins` (made on first use), or null while no demo widget was seeded. */
  demoPublicKey(origins: string[]): Promise<string | null>;
  listKeys(scope: AccountScope): Promise<ApiKey[]>;
  rotateCallbackSecret(scope: AccountScope, keyId: string): Promise<{ apiKey: ApiKey; callbackSecret: string }>;
  revokeKey(scope: AccountScope, keyId: string): Promise<ApiKey>;

  createWebhook(input: { accountId: string; url: string; events?: readonly string[] | undefined }): Promise<webhooks.CreatedWebhook>;
  listWebhooks(accountId: string): Promise<WebhookEndpoint[]>;
  deleteWebhook(scope: AccountScope, webhookId: string): Promise<void>;
  rotateWebhookSecret(scope: AccountScope, webhookId: string, graceSeconds?: number): Promise<webhooks.CreatedWebhook>;

  importKnowledgeBase(input: { accountId: string; name?: string; content: unknown }): Promise<{ knowledgeBase: KnowledgeBase } & knowledge.ImportedKnowledge>;
  importIntoKnowledgeBase(scope: AccountScope, kbId: string, content: unknown): Promise<knowledge.ImportedKnowledge>;
  createKnowledgeBase(accountId: string, body: unknown): Promise<KnowledgeBaseView>;
  listKnowledgeBases(accountId: string): Promise<KnowledgeBaseView[]>;
  getKnowledgeBase(scope: AccountScope, kbId: string): Promise<KnowledgeBaseDetail>;
  listKnowledgeProducts(scope: AccountScope, kbId: string, query?: { cursor?: string; limit?: number }): Promise<{ products: ProductInput[]; nextCursor: string | null }>;
  listKnowledgeDocuments(scope: AccountScope, kbId: string): Promise<DocumentView[]>;
  searchKnowledge(scope: AccountScope, kbId: string, body: unknown): Promise<KnowledgeSearchResult>;
  /** A website source, queued for its first sync (DESIGN.md section 11 "Sources"). */
  addKnowledgeSource(scope: AccountScope, kbId: string, body: unknown): Promise<SourceView>;
  /** The knowledge base's sources, oldest first, with their progress. */
  listKnowledgeSources(scope: AccountScope, kbId: string): Promise<SourceView[]>;
  /** A source with the pages its last sync could not read. */
  getKnowledgeSource(scope: AccountScope, kbId: string, sourceId: string): Promise<SourceDetail>;
  /** Queues a website's sync; one queued or running already is returned as it is. */
  syncKnowledgeSource(scope: AccountScope, kbId: string, sourceId: string): Promise<SourceView>;
  /** Removes a source with its pages, documents and products. */
  deleteKnowledgeSource(scope: AccountScope, kbId: string, sourceId: string): Promise<Deleted>;
  /** What the adapter extracted from an upload, stored as a `file` source. */
  addKnowledgeFile(scope: AccountScope, kbId: string, file: UploadedFile): Promise<SourceView>;

  listDeliveries(scope: AccountScope, query?: { status?: DeliveryStatus; limit?: number }): Promise<Delivery[]>;
  replayDelivery(scope: AccountScope, deliveryId: string): Promise<Delivery>;

  analytics(accountId: string, range: usage.AnalyticsRange): Promise<usage.Analytics>;

  /** The questions page (DESIGN.md section 12). */
  listQuestionGroups(accountId: string, filters?: QuestionFilters): Promise<{ items: QuestionGroupView[]; nextCursor: string | null }>;
  answerQuestionGroup(scope: AccountScope, groupId: string, body: unknown): Promise<DocumentView>;
  dismissQuestionGroup(scope: AccountScope, groupId: string): Promise<QuestionGroupView>;
}

/**
 * @example
 * const admin = createAdmin({ store, urlProblem: () => null });
 * const account = await admin.createAccount({ name: 'Acme' });
 * await admin.setWidgetTheme(account.id, 'wgt_…', { primaryColor: '#0f766e' }); // another account's widget: 404
 */
export function createAdmin(options: AdminOptions): Admin {
  const { store } = options;
  return adminOperations({ store, retriever: createRetriever({ store }), clock: options.clock ?? systemClock, ids: options.ids ?? defaultIds, urlProblem: options.urlProblem });
}

/** The operator operations on a context (the core's one context, or the part of it they read). */
export function adminOperations(ctx: AdminContext): Admin {
  return {
    createAccount: (input) => accounts.createAccount(ctx, input),
    setCredits: (accountId, balance) => accounts.setCredits(ctx, accountId, balance),
    getAccount: (accountId) => accounts.getAccount(ctx, accountId),

    createWidget: (input) => widgets.createWidget(ctx, input),
    listWidgets: (accountId) => widgets.listWidgets(ctx, accountId),
    getWidget: (scope, id) => widgets.getWidget(ctx, scope, id),
    updateWidget: (scope, id, input) => widgets.updateWidget(ctx, scope, id, input),
    setWidgetTheme: (scope, id, theme) => widgets.setWidgetTheme(ctx, scope, id, theme),
    setWidgetForms: (scope, id, forms) => widgets.setWidgetForms(ctx, scope, id, forms),
    rotateIdentitySecret: (scope, id, grace) => widgets.rotateIdentitySecret(ctx, scope, id, grace),

    createApiKey: (input) => keys.createApiKey(ctx, input),
    createPublicKey: (scope, input) => keys.createPublicKey(ctx, scope, input),
    demoPublicKey: (origins) => keys.demoPublicKey(ctx, origins),
    listKeys: (scope) => keys.listKeys(ctx, scope),
    rotateCallbackSecret: (scope, id) => keys.rotateCallbackSecret(ctx, scope, id),
    revokeKey: (scope, id) => keys.revokeKey(ctx, scope, id),

    createWebhook: (input) => webhooks.createWebhook(ctx, input),
    listWebhooks: (accountId) => webhooks.listWebhooks(ctx, accountId),
    deleteWebhook: (scope, id) => webhooks.deleteWebhook(ctx, scope, id),
    rotateWebhookSecret: (scope, id, grace) => webhooks.rotateWebhookSecret(ctx, scope, id, grace),

    importKnowledgeBase: (input) => knowledge.importKnowledgeBase(ctx, input),
    importIntoKnowledgeBase: (scope, kbId, content) => knowledge.importIntoKnowledgeBase(ctx, scope, kbId, content),
    createKnowledgeBase: (accountId, body) => knowledge.createKnowledgeBase(ctx, accountId, body),
    listKnowledgeBases: (accountId) => knowledge.listKnowledgeBases(ctx, accountId),
    getKnowledgeBase: (scope, kbId) => knowledge.getKnowledgeBase(ctx, scope, kbId),
    listKnowledgeProducts: (scope, kbId, query) => knowledge.listKnowledgeProducts(ctx, scope, kbId, query),
    listKnowledgeDocuments: (scope, kbId) => knowledge.listKnowledgeDocuments(ctx, scope, kbId),
    searchKnowledge: (scope, kbId, body) => knowledge.searchKnowledge(ctx, scope, kbId, body),
    addKnowledgeSource: (scope, kbId, body) => knowledge.addKnowledgeSource(ctx, scope, { kbId, body }),
    listKnowledgeSources: (scope, kbId) => knowledge.listKnowledgeSources(ctx, scope, kbId),
    getKnowledgeSource: (scope, kbId, sourceId) => knowledge.getKnowledgeSource(ctx, scope, { kbId, sourceId }),
    syncKnowledgeSource: (scope, kbId, sourceId) => knowledge.syncKnowledgeSource(ctx, scope, { kbId, sourceId }),
    deleteKnowledgeSource: (scope, kbId, sourceId) => knowledge.deleteKnowledgeSource(ctx, scope, { kbId, sourceId }),
    addKnowledgeFile: (scope, kbId, file) => knowledge.addKnowledgeFile(ctx, scope, { kbId, file }),

    listDeliveries: (scope, query) => deliveries.listDeliveries(ctx, scope, query),
    replayDelivery: (scope, id) => deliveries.replayDelivery(ctx, scope, id),

    analytics: (accountId, range) => usage.analytics(ctx, accountId, range),

    listQuestionGroups: (accountId, filters) => questions.listQuestionGroups(ctx, accountId, filters),
    answerQuestionGroup: (scope, groupId, body) => questions.answerQuestionGroup(ctx, scope, { groupId, body }),
    dismissQuestionGroup: (scope, groupId) => questions.dismissQuestionGroup(ctx, scope, groupId),
  };
}
