import { describe, expectTypeOf, it } from 'vitest';
import { createClient } from './index.js';
import type {
  ApiResponse,
  CreatedSession,
  CreateSessionBody,
  FormSubmissionBody,
  HistoryItem,
  MessageReply,
  PageResponse,
  ProcessingReply,
  Product,
  Rating,
  SendMessageBody,
  Session,
  SvcApiErrorCode,
  SvcClient,
  TurnResponse,
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
    expectTypeOf<SendMessageBody['response_type']>().toEqualTypeOf<'sync' | 'callback' | undefined>();
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

  it('narrows a send result on its status: 200 reply or 202 processing', () => {
    expectTypeOf(client.messages.send).returns.resolves.toEqualTypeOf<TurnResponse>();
    const narrow = (res: TurnResponse) => {
      if (res.status === 200) expectTypeOf(res.data).toEqualTypeOf<MessageReply>();
      else expectTypeOf(res.data).toEqualTypeOf<ProcessingReply>();
    };
    expectTypeOf(narrow).toBeFunction();
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
