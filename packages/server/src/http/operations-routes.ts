import { z } from 'zod';
import { healthSchema } from '../openapi/components.js';
import { docsPageHtml } from '../openapi/docs-page.js';
import { metricsText, readiness } from '../operations/operations.js';
import type { Route } from './routes.js';

/** Running the service: health, readiness, metrics and the API's own document. */
export const OPERATIONS_ROUTES: readonly Route[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'getHealth',
    tag: 'Operations',
    summary: 'Health check',
    description:
      'Liveness: 200 while the process runs, whether or not its database answers (a lost database is `/readyz`\'s 503, so an orchestrator does not restart a healthy process during an outage). Needs no key; answers HEAD too.',
    auth: 'none',
    head: true,
    responses: { 200: { schema: healthSchema, description: 'The process is alive.' } },
    errors: ['internal_error'],
    handler: async ({ c }) => c.json({ status: 'ok' }),
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    tag: 'Operations',
    summary: 'Readiness probe',
    description: '200 when the database answers and its migrations are current; 503 otherwise, and at once after SIGTERM (draining). For orchestrators and load balancers.',
    auth: 'none',
    head: true,
    // An orchestrator probe (README "Production"), not part of the API a client programs against.
    document: false,
    responses: { 200: { schema: z.object({}).loose(), description: 'Ready.' } },
    errors: [],
    handler: async ({ c }) => readiness(c, c.var.server.operations),
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    tag: 'Operations',
    summary: 'Prometheus metrics',
    description: 'HTTP requests by route and status with latency histograms, turns, agent latency, queue depth, deliveries by outcome, pool use.',
    auth: 'none',
    document: false,
    responses: { 200: { schema: z.string(), description: 'The Prometheus text format.', contentType: 'text/plain' } },
    errors: [],
    handler: async ({ c }) => metricsText(c, c.var.server.operations),
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Operations',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API, generated from the route table.',
    auth: 'none',
    head: true,
    document: false,
    responses: { 200: { schema: z.object({}).loose(), description: 'The document.' } },
    errors: [],
    handler: async ({ c }) => c.json(c.var.server.openApiDocument()),
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'getDocsPage',
    tag: 'Operations',
    summary: 'The API reference page',
    description: 'An HTML page rendering this document.',
    auth: 'none',
    head: true,
    document: false,
    responses: { 200: { schema: z.string(), description: 'The page.', contentType: 'text/html' } },
    errors: [],
    // The relative spec URL keeps working when the app is mounted under a path.
    handler: async ({ c }) => c.html(docsPageHtml('openapi.json')),
  },
];
