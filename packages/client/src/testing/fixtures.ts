import type {
  CreatedSession,
  EndedSession,
  HistoryItem,
  KnowledgeBase,
  KnowledgeBaseDetail,
  KnowledgeDocument,
  KnowledgeSearchResult,
  MessageReply,
  Product,
  RatedSession,
  Session,
} from '../index.js';

/** Response bodies shaped like the server's (spec section 2), typed by the client's own types. */

export const WIDGET = 'wgt_123';
export const SESSION = 'sess_abc';
export const KB = 'kb_789';

export const createdSession: CreatedSession = {
  sessionId: SESSION,
  widgetId: WIDGET,
  visitorId: 'visitor-1',
  status: 'active',
  createdAt: '2026-11-21T10:51:00.000Z',
  resumed: false,
};

export const session: Session = {
  sessionId: SESSION,
  widgetId: WIDGET,
  visitorId: 'visitor-1',
  status: 'resolved',
  messageCount: 4,
  rating: null,
  createdAt: '2026-11-21T10:51:00.000Z',
  resolvedAt: '2026-11-21T11:00:00.000Z',
  handoff: null,
};

export const endedSession: EndedSession = { sessionId: SESSION, status: 'resolved', resolvedAt: '2026-11-21T11:00:00.000Z' };

export const ratedSession: RatedSession = { sessionId: SESSION, rating: 'positive' };

export const reply: MessageReply = {
  messageId: 'msg_01JD0000000000000000000000',
  content: 'We ship to Canada in 5-7 days.',
  products: [{ id: 'tent-2p', name: 'Trail Tent 2P', price: 249 }],
  actions: [],
  sources: [],
  sessionEnded: false,
  credits: { chat: 1, retrieval: 1, orchestration: 0, embedding: 0, rerank: 0, plugin: 0, pluginRerank: 0, crawler: 0 },
  usage: { inputTokens: 120, outputTokens: 40 },
};

export function historyItem(n: number): HistoryItem {
  return {
    messageId: `msg_${String(n).padStart(26, '0')}`,
    role: n % 2 === 1 ? 'user' : 'assistant',
    content: `message ${n}`,
    createdAt: '2026-11-21T10:51:00.000Z',
  };
}

export function product(n: number): Product {
  return { id: `p-${String(n).padStart(3, '0')}`, name: `Product ${n}`, price: n * 10, currency: 'EUR' };
}

export function knowledgeBase(n: number): KnowledgeBase {
  return { id: `kb_${String(n).padStart(3, '0')}`, name: `Catalogue ${n}`, createdAt: '2026-11-21T10:51:00.000Z' };
}

export const knowledgeBaseDetail: KnowledgeBaseDetail = { id: KB, name: 'Outdoor shop', createdAt: '2026-11-21T10:51:00.000Z', products: 12, documents: 3, embeddings: null };

export function document(n: number): KnowledgeDocument {
  return { id: `doc_${String(n).padStart(3, '0')}`, knowledgeBaseId: KB, sourceId: null, title: `Guide ${n}`, url: null, createdAt: '2026-11-21T10:51:00.000Z' };
}

export const searchResult: KnowledgeSearchResult = {
  passages: [{ documentId: 'doc_001', title: 'Shipping', url: 'https://shop.example/shipping', content: 'Shipping\n\nWe ship to Canada in 5-7 days.', rank: 2.5, score: 2.75, confidence: 0.82, retrievers: ['text'] }],
  products: [{ ...product(1), rank: 1.25, confidence: 0.6 }],
  confidence: 0.82,
};

export const meta = (creditsConsumed: number) => ({ creditsConsumed });
