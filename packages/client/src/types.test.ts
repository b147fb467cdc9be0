import { describe, expectTypeOf, it } from 'vitest';
import { createClient } from './index.js';
import type {
  ApiResponse,
  CreatedSession,
  CreateKnowledgeBaseBody,
  CreateSessionBody,
  Deleted,
  DocumentBody,
  FormSubmissionBody,
  HistoryItem,
  KnowledgeBase,
  KnowledgeBaseDetail,
  KnowledgeDocument,
  KnowledgeSearchBody,
  KnowledgeSearchResult,
  MessageCompletedEvent,
  MessageCreatedEvent,
  MessageDeltaEvent,
  MessageFailedEvent,
  MessageHandoffEvent,
  MessageReply,
  MessageStartEvent,
  Meta,
  PageResponse,
  ProcessingReply,
  Product,
  ProductBody,
  ProductInput,
  Rating,
  SendMessageBody,
  Session,
  SessionStreamEvent,
  SessionUpdatedEvent,
  SvcApiErrorCode,
  SvcClient,
  TurnResponse,
  TurnStreamEvent,
  UpsertedProducts,
  UpsertProductsBody,
} from './index.js';

// Type tests: `pnpm typecheck` checks these assertions; at run time they are no-ops (no request is sent).
const client: SvcClient = createClient({ baseUrl: 'https://svc.test', apiKey: 'sk_live_typetests' });

describe('inferred types', () => {
  it('takes request bodies as the core schemas accept them', () => {
    expectTypeOf<CreateSessionBody>().toEqualTypeOf<{
      visitorId: string;
      sessionId?: string | undefined;
      visitorContext?: { name?: string | undefined; email?: string | undefined; phone?: string | undefined; company?: string | undefined } | undefined;
      language?: string | undefined;
      timezone?: string | undefined;
    }>();
    expectTypeOf<SendMessageBody['content']>().toEqualTypeOf<string>();
    expectTypeOf<SendMessageBody['response_type']>().toEqualTypeOf<'sync' | 'stream' | 'callback' | undefined>();
    expectTypeOf<NonNullable<SendMessageBody['identity']>['sub']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<SendMessageBody['identity']>['email_verified']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<FormSubmissionBody['answers']>().toEqualTypeOf<Record<string, string | number | boolean | string[] | null>>();
    expectTypeOf<Rating>().toEqualTypeOf<'positive' | 'negative'>();
  });

  it('returns responses as the core schemas describe them', () => {
    expectTypeOf<Session['status']>().toEqualTypeOf<'active' | 'resolved' | 'expired'>();
    expectTypeOf<Session['rating']>().toEqualTypeOf<'positive' | 'negative' | null>();
    expectTypeOf<Session['resolvedAt']>().toEqualTypeOf<string | null>();
    expectTypeOf<MessageReply['credits']>().toEqualTypeOf<{
      chat: number;
      retrieval: number;
      orchestration: number;
      embedding: number;
      rerank: number;
      plugin: number;
      pluginRerank: number;
      crawler: number;
    }>();
    expectTypeOf<MessageReply['forms']>().toEqualTypeOf<
      | Array<{
          formId: string;
          title: string;
          questions: Array<{
            id: string;
            label: string;
            kind: 'text' | 'textarea' | 'email' | 'phone' | 'number' | 'boolean' | 'select' | 'multiselect' | 'date' | 'time' | 'datetime';
            required: boolean;
            options?: string[] | undefined;
            min?: number | undefined;
            max?: number | undefined;
          }>;
        }>
      | undefined
    >();
    expectTypeOf<ProcessingReply>().toEqualTypeOf<{ messageId: string | null; status: 'processing' }>();
    expectTypeOf<HistoryItem['role']>().toEqualTypeOf<'user' | 'assistant'>();
    expectTypeOf<Product>().toHaveProperty('price').toEqualTypeOf<number>();
  });

  it('types every method with its envelope; meta.creditsConsumed is reachable', () => {
    expectTypeOf(client.sessions.create).returns.resolves.toEqualTypeOf<ApiResponse<CreatedSession, 200 | 201>>();
    expectTypeOf(client.sessions.get).returns.resolves.toEqualTypeOf<ApiResponse<Session>>();
    expectTypeOf(client.messages.list).returns.resolves.toEqualTypeOf<PageResponse<HistoryItem>>();
    expectTypeOf(client.products.list).returns.resolves.toEqualTypeOf<PageResponse<Product>>();
    expectTypeOf(client.messages.iterate).returns.toEqualTypeOf<AsyncGenerator<HistoryItem, void, undefined>>();
    expectTypeOf(client.products.iterate).returns.toEqualTypeOf<AsyncGenerator<Product, void, undefined>>();
    expectTypeOf(client.forms.submit).returns.resolves.toEqualTypeOf<TurnResponse>();
    expectTypeOf<ApiResponse<Session>['meta']['creditsConsumed']>().toEqualTypeOf<number>();
    expectTypeOf<PageResponse<Product>['pagination']>().toEqualTypeOf<{ cursor: string | null; hasMore: boolean; total?: number | undefined }>();
  });

  it('types the knowledge-base bodies and responses from core', () => {
    expectTypeOf<CreateKnowledgeBaseBody>().toEqualTypeOf<{ name: string }>();
    // The path names the product; a body id may only repeat it.
    expectTypeOf<ProductBody['id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ProductBody['price']>().toEqualTypeOf<number>();
    expectTypeOf<ProductInput['id']>().toEqualTypeOf<string>();
    expectTypeOf<UpsertProductsBody>().toEqualTypeOf<{ products: ProductInput[] }>();
    expectTypeOf<DocumentBody>().toEqualTypeOf<{ title: string; content: string; url?: string | undefined }>();
    expectTypeOf<KnowledgeSearchBody>().toEqualTypeOf<{ query: string; language?: string | undefined; limit?: number | undefined }>();
    expectTypeOf<KnowledgeBase>().toEqualTypeOf<{ id: string; name: string; createdAt: string }>();
    expectTypeOf<KnowledgeBaseDetail>().toMatchTypeOf<KnowledgeBase & { products: number; documents: number }>();
    expectTypeOf<KnowledgeDocument>().toEqualTypeOf<{ id: string; knowledgeBaseId: string; sourceId: string | null; title: string; url: string | null; createdAt: string }>();
    expectTypeOf<KnowledgeSearchResult['passages'][number]>().toEqualTypeOf<{
      documentId: string;
      title: string;
      url: string | null;
      content: string;
      rank: number;
      score: number;
      confidence: number;
      retrievers: Array<'text' | 'vector' | 'rerank'>;
    }>();
    expectTypeOf<KnowledgeSearchResult['products'][number]>().toMatchTypeOf<Product & { rank: number; confidence: number }>();
    expectTypeOf<UpsertedProducts>().toEqualTypeOf<{ upserted: number }>();
    expectTypeOf<Deleted>().toEqualTypeOf<{ id: string; deleted: true }>();
  });

  it('types every knowledge method with its envelope', () => {
    expectTypeOf(client.knowledgeBases.create).returns.resolves.toEqualTypeOf<ApiResponse<KnowledgeBase, 201>>();
    expectTypeOf(client.knowledgeBases.list).returns.resolves.toEqualTypeOf<PageResponse<KnowledgeBase>>();
    expectTypeOf(client.knowledgeBases.iterate).returns.toEqualTypeOf<AsyncGenerator<KnowledgeBase, void, undefined>>();
    expectTypeOf(client.knowledgeBases.get).returns.resolves.toEqualTypeOf<ApiResponse<KnowledgeBaseDetail>>();
    expectTypeOf(client.products.put).returns.resolves.toEqualTypeOf<ApiResponse<Product>>();
    expectTypeOf(client.products.upsert).returns.resolves.toEqualTypeOf<ApiResponse<UpsertedProducts>>();
    expectTypeOf(client.products.delete).returns.resolves.toEqualTypeOf<ApiResponse<Deleted>>();
    expectTypeOf(client.documents.add).returns.resolves.toEqualTypeOf<ApiResponse<KnowledgeDocument, 201>>();
    expectTypeOf(client.documents.replace).returns.resolves.toEqualTypeOf<ApiResponse<KnowledgeDocument>>();
    expectTypeOf(client.documents.delete).returns.resolves.toEqualTypeOf<ApiResponse<Deleted>>();
    expectTypeOf(client.documents.list).returns.resolves.toEqualTypeOf<PageResponse<KnowledgeDocument>>();
    expectTypeOf(client.documents.iterate).returns.toEqualTypeOf<AsyncGenerator<KnowledgeDocument, void, undefined>>();
    expectTypeOf(client.knowledge.search).returns.resolves.toEqualTypeOf<ApiResponse<KnowledgeSearchResult>>();
    // @ts-expect-error a search needs a query
    expectTypeOf<{ limit: 3 }>().toMatchTypeOf<KnowledgeSearchBody>();
  });

  it('narrows a send result on its status: 200 reply or 202 processing', () => {
    expectTypeOf(client.messages.send).returns.resolves.toEqualTypeOf<TurnResponse>();
    const narrow = (res: TurnResponse) => {
      if (res.status === 200) expectTypeOf(res.data).toEqualTypeOf<MessageReply>();
      else expectTypeOf(res.data).toEqualTypeOf<ProcessingReply>();
    };
    expectTypeOf(narrow).toBeFunction();
  });

  it('types the stream events from core\'s stream protocol, with the shapes the client always had', () => {
    expectTypeOf<MessageStartEvent>().toEqualTypeOf<{ type: 'message.start'; messageId: string; sessionId: string }>();
    expectTypeOf<MessageDeltaEvent>().toEqualTypeOf<{ type: 'message.delta'; text: string }>();
    expectTypeOf<MessageCompletedEvent>().toEqualTypeOf<{ type: 'message.completed'; data: MessageReply; meta: Meta }>();
    expectTypeOf<MessageFailedEvent>().toEqualTypeOf<{ type: 'message.failed'; error: { code: string; message: string; field?: string | undefined }; meta: Meta }>();
    expectTypeOf<MessageHandoffEvent>().toEqualTypeOf<{ type: 'message.handoff'; data: { messageId: null; status: 'processing' }; meta: Meta }>();
    expectTypeOf<TurnStreamEvent>().toEqualTypeOf<MessageStartEvent | MessageDeltaEvent | MessageCompletedEvent | MessageFailedEvent | MessageHandoffEvent>();
    expectTypeOf<MessageCreatedEvent>().toEqualTypeOf<{ type: 'message.created'; id: string; data: HistoryItem }>();
    expectTypeOf<SessionUpdatedEvent>().toEqualTypeOf<{ type: 'session.updated'; id: string; data: Session }>();
    expectTypeOf<SessionStreamEvent>().toEqualTypeOf<MessageCreatedEvent | SessionUpdatedEvent>();
  });

  it('rejects bodies the server would refuse by type', () => {
    // @ts-expect-error visitorId is required
    expectTypeOf<{ language: 'en' }>().toMatchTypeOf<CreateSessionBody>();
    // @ts-expect-error rating is 'positive' or 'negative'
    expectTypeOf<{ rating: 'great' }>().toMatchTypeOf<{ rating: Rating }>();
    expectTypeOf<'session_not_found'>().toMatchTypeOf<SvcApiErrorCode>();
    expectTypeOf<'network_error'>().toMatchTypeOf<SvcApiErrorCode>();
  });
});
