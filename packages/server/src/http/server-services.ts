import type { Operations } from '../operations/operations.js';
import type { EventStreamOptions } from './session-event-stream.js';
import type { StreamOptions } from './stream-routes.js';

/**
 * What only the HTTP adapter has, on each request's context as `c.var.server`: how streams are written and kept
 * open, the metrics and draining flag, the OpenAPI document, and the client's address as the limiter counts it. Route
 * handlers reach the domain through the core alone; these are the adapter's own concerns.
 */
export interface ServerServices {
  /** How streamed answers (`response_type: "stream"`, /chat) log and keep idle connections open. */
  stream: StreamOptions;
  /** Session event streams: keep-alive and the connection caps. */
  eventStreams: EventStreamOptions;
  /** Metrics and the draining flag, for /healthz, /readyz and /metrics. */
  operations: Operations;
  /** The OpenAPI document (built once, from the route table). */
  openApiDocument(): Record<string, unknown>;
  /** The client's address as the request limiter counts it (trusted proxies applied). */
  clientAddress(): string;
}
