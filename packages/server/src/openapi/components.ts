import { z } from 'zod';
import { actionSchema, createSourceRequestSchema, sourceDetailSchema, sourceSchema, createdSessionSchema, createKnowledgeBaseRequestSchema, createSessionRequestSchema, creditsSchema, documentRequestSchema, documentSchema, endedSessionSchema, envelope, errorBodySchema, formQuestionSchema, formSubmissionRequestSchema, historyItemSchema, uiMessageSchema, identitySchema, deletedSchema, knowledgeBaseDetailSchema, knowledgeBaseSchema, knowledgeSearchRequestSchema, knowledgeSearchResultSchema, listEnvelope, messageReplySchema, metaSchema, paginationSchema, processingReplySchema, productBodySchema, productSchema, ratedSessionSchema, rateSessionRequestSchema, sendMessageRequestSchema, sessionSchema, surfacedFormSchema, upsertedProductsSchema, upsertProductsRequestSchema, widgetConfigSchema, widgetThemeSchema, usageSchema, messageCompletedEventSchema, messageFailedEventSchema, sessionCreatedEventSchema, sessionExpiredEventSchema, sessionRatedEventSchema, sessionHandoffEventSchema, sessionResolvedEventSchema, visitorContextSchema, TURN_EVENT, turnEventDataSchemas, type TurnEventName, messageFeedbackEventSchema, messageFeedbackRequestSchema, messageFeedbackReplySchema } from '@svc/core/schemas';

type JsonSchema = Record<string, unknown>;
type Registry = ReturnType<typeof z.registry<{ id: string }>>;

/** `GET /healthz`: not a resource of the spec, so its one schema lives here. */
export const healthSchema = z.object({ status: z.literal('ok') });

/**
 * The component holding the data of each turn event. Keyed by the event, so a new event in core's `TURN_EVENT`
 * fails to compile here until it is documented; the stream docs' `x-events` map is this table.
 */
export const TURN_EVENT_COMPONENTS = {
  [TURN_EVENT.start]: 'StreamStartEvent',
  [TURN_EVENT.delta]: 'StreamDeltaEvent',
  [TURN_EVENT.completed]: 'StreamCompletedEvent',
  [TURN_EVENT.failed]: 'StreamFailedEvent',
  [TURN_EVENT.handoff]: 'StreamHandoffEvent',
} as const satisfies Record<TurnEventName, string>;

type TurnEventComponents = { [E in TurnEventName as (typeof TURN_EVENT_COMPONENTS)[E]]: (typeof turnEventDataSchemas)[E] };

/** The turn events' data schemas under their component names, in the order the events come. */
function turnEventComponents(): TurnEventComponents {
  return Object.fromEntries(Object.values(TURN_EVENT).map((event) => [TURN_EVENT_COMPONENTS[event], turnEventDataSchemas[event]])) as TurnEventComponents;
}

/** Request bodies: converted as what the server accepts (zod input). */
export const REQUEST_SCHEMAS = {
  CreateSessionRequest: createSessionRequestSchema,
  SendMessageRequest: sendMessageRequestSchema,
  FormSubmissionRequest: formSubmissionRequestSchema,
  RateSessionRequest: rateSessionRequestSchema,
  MessageFeedbackRequest: messageFeedbackRequestSchema,
  VisitorContext: visitorContextSchema,
  Identity: identitySchema,
  CreateKnowledgeBaseRequest: createKnowledgeBaseRequestSchema,
  UpsertProductsRequest: upsertProductsRequestSchema,
  // A product as sent; `Product` (a response) is the same fields as the server stores them.
  ProductInput: productSchema,
  ProductBody: productBodySchema,
  DocumentRequest: documentRequestSchema,
  KnowledgeSearchRequest: knowledgeSearchRequestSchema,
  CreateSourceRequest: createSourceRequestSchema,
};

/** Responses: converted as what the server produces (zod output). Envelopes are spec 2.7's. */
export const RESPONSE_SCHEMAS = {
  CreatedSession: createdSessionSchema,
  Session: sessionSchema,
  EndedSession: endedSessionSchema,
  RatedSession: ratedSessionSchema,
  MessageReply: messageReplySchema,
  ProcessingReply: processingReplySchema,
  HistoryItem: historyItemSchema,
  Product: productSchema,
  SurfacedForm: surfacedFormSchema,
  FormQuestion: formQuestionSchema,
  Action: actionSchema,
  Credits: creditsSchema,
  Usage: usageSchema,
  Meta: metaSchema,
  Pagination: paginationSchema,
  Error: errorBodySchema,
  Health: healthSchema,
  MessageCompletedEvent: messageCompletedEventSchema,
  MessageFailedEvent: messageFailedEventSchema,
  SessionCreatedEvent: sessionCreatedEventSchema,
  SessionResolvedEvent: sessionResolvedEventSchema,
  SessionExpiredEvent: sessionExpiredEventSchema,
  SessionRatedEvent: sessionRatedEventSchema,
  SessionHandoffEvent: sessionHandoffEventSchema,
  MessageFeedbackEvent: messageFeedbackEventSchema,
  CreatedSessionResponse: envelope(createdSessionSchema),
  SessionResponse: envelope(sessionSchema),
  EndedSessionResponse: envelope(endedSessionSchema),
  RatedSessionResponse: envelope(ratedSessionSchema),
  MessageFeedbackReply: messageFeedbackReplySchema,
  MessageFeedbackResponse: envelope(messageFeedbackReplySchema),
  MessageReplyResponse: envelope(messageReplySchema),
  ProcessingReplyResponse: envelope(processingReplySchema),
  HistoryPage: listEnvelope(historyItemSchema),
  UiMessagePage: listEnvelope(uiMessageSchema),
  ProductPage: listEnvelope(productSchema),
  KnowledgeBase: knowledgeBaseSchema,
  KnowledgeBaseDetail: knowledgeBaseDetailSchema,
  Document: documentSchema,
  KnowledgeSearchResult: knowledgeSearchResultSchema,
  UpsertedProducts: upsertedProductsSchema,
  Deleted: deletedSchema,
  WidgetConfig: widgetConfigSchema,
  WidgetTheme: widgetThemeSchema,
  KnowledgeBaseResponse: envelope(knowledgeBaseSchema),
  KnowledgeBaseDetailResponse: envelope(knowledgeBaseDetailSchema),
  KnowledgeBasePage: listEnvelope(knowledgeBaseSchema),
  ProductResponse: envelope(productSchema),
  UpsertedProductsResponse: envelope(upsertedProductsSchema),
  DeletedResponse: envelope(deletedSchema),
  DocumentResponse: envelope(documentSchema),
  DocumentPage: listEnvelope(documentSchema),
  KnowledgeSearchResponse: envelope(knowledgeSearchResultSchema),
  Source: sourceSchema,
  SourceDetail: sourceDetailSchema,
  SourceResponse: envelope(sourceSchema),
  SourceDetailResponse: envelope(sourceDetailSchema),
  SourcePage: listEnvelope(sourceSchema),
  WidgetConfigResponse: envelope(widgetConfigSchema),
  // The data of the turn events (response_type "stream"), as core's stream protocol defines them; their fields
  // refer to MessageReply, Meta and the rest as the components above.
  ...turnEventComponents(),
};

export type ComponentName = keyof typeof REQUEST_SCHEMAS | keyof typeof RESPONSE_SCHEMAS;

export const ref = (name: ComponentName): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });

function convert(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  // A registry of our own: ids are attached here, never to core's schemas or zod's global registry.
  const registry: Registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: converted } = z.toJSONSchema(registry, { io, uri: (id) => ref(id as ComponentName).$ref });
  // Components are schemas of the document's own dialect (OpenAPI 3.1 = JSON Schema 2020-12); a fragment-only
  // `$id` would even be invalid there.
  return Object.fromEntries(
    Object.entries(converted).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
      return [id, rest];
    }),
  );
}

/** Every component schema of the document, generated from @svc/core's zod schemas. */
export function componentSchemas(): Record<string, JsonSchema> {
  return { ...convert(REQUEST_SCHEMAS, 'input'), ...convert(RESPONSE_SCHEMAS, 'output') };
}

const NAMES = new Map<z.ZodType, ComponentName>(
  [...Object.entries(REQUEST_SCHEMAS), ...Object.entries(RESPONSE_SCHEMAS)].map(([name, schema]) => [schema as z.ZodType, name as ComponentName]),
);

/**
 * A body or response schema as the document writes it: a `$ref` to its component when the schema is registered
 * above, else converted inline (a new route needs no registration to be documented correctly).
 */
export function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const name = NAMES.get(schema);
  if (name) return ref(name);
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** A standalone JSON Schema for a parameter, from a zod schema; inline, as parameters are small. */
export function parameterSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  return rest;
}

