import type { ErrorCode } from '@svc/core';
import { addEvalCaseRequestSchema, envelope, evalRunListQuerySchema, evalRunSchema, evalSuiteBodySchema, evalSuiteSchema, evalSuiteViewSchema, metaSchema } from '@svc/core/schemas';
import { z } from 'zod';
import { ADMIN, BODY, ok, V1 } from './admin-route-kit.js';
import type { Route, RouteSpec } from './routes.js';

/**
 * The admin API's eval routes (DESIGN.md section 12): a widget's suites and runs. The runner is core's
 * (`core.admin.startEvalRun`), the same one `svc eval run` uses.
 */

const evals = `${V1}/widgets/{widgetId}/evals`;
const WIDGET: ErrorCode[] = ['validation_failed', 'widget_not_found'];

/** Owner-only, like the rest of a widget's configuration. */
const owner = (route: Omit<RouteSpec<'admin'>, 'tag' | 'auth' | 'errors'> & { errors?: readonly ErrorCode[] }): Route => ({
  ...route,
  tag: 'admin',
  auth: 'admin',
  errors: [...ADMIN, ...(route.body ? BODY : []), ...WIDGET, ...(route.errors ?? [])],
});

export const EVAL_ROUTES: Route[] = [
  owner({
    method: 'post',
    path: `${evals}/runs`,
    operationId: 'adminStartEvalRun',
    summary: 'Run an eval suite',
    description:
      'Runs every case of the suite (the body: JSON, or YAML with `Content-Type: application/yaml`) as a real conversation through the widget\'s agent, on evaluation sessions: never billed, never in analytics or the conversations list. Answers 202 with the queued run at once; read it again for its cases. A finished run names the cases that passed in the previous run of the same suite and fail now (`regressions`). A bad suite is a 400 naming the case and the field.',
    body: { schema: evalSuiteSchema, required: true, yaml: true },
    responses: { 202: { schema: envelope(evalRunSchema), description: 'The run, queued.' } },
    handler: async ({ caller, core, params, body }) => ({ status: 202, data: await core.admin.startEvalRun(caller.accountId, params.widgetId!, body), creditsConsumed: 0 }),
  }),
  owner({
    method: 'get',
    path: `${evals}/runs`,
    operationId: 'adminListEvalRuns',
    summary: 'List eval runs',
    description: "The widget's eval runs, newest first, optionally of one suite (`suite`); `meta.nextCursor` pages on.",
    query: evalRunListQuerySchema,
    responses: {
      200: {
        schema: z.object({ data: z.array(evalRunSchema), meta: metaSchema.extend({ nextCursor: z.string().nullable() }) }),
        description: 'A page of runs.',
      },
    },
    errors: ['invalid_cursor'],
    handler: async ({ c, caller, core, params, query }) => {
      const page = await core.admin.listEvalRuns(caller.accountId, params.widgetId!, query);
      return c.json({ data: page.items, meta: { creditsConsumed: 0, nextCursor: page.nextCursor } });
    },
  }),
  owner({
    method: 'get',
    path: `${evals}/runs/{runId}`,
    operationId: 'adminGetEvalRun',
    summary: 'Read an eval run',
    description: 'Its status (`queued`, `running`, `passed`, `failed`), every case run so far with its failures, reply excerpt and sources, and the regressions against the previous run.',
    responses: { 200: { schema: envelope(evalRunSchema), description: 'The run.' } },
    errors: ['not_found'],
    handler: async ({ caller, core, params }) => ok(await core.admin.getEvalRun(caller.accountId, { widgetId: params.widgetId!, runId: params.runId! })),
  }),
  owner({
    method: 'get',
    path: `${evals}/suites`,
    operationId: 'adminListEvalSuites',
    summary: 'List eval suites',
    description: "The widget's stored suites, by name.",
    responses: { 200: { schema: envelope(z.array(evalSuiteViewSchema)), description: 'The suites.' } },
    handler: async ({ caller, core, params }) => ok(await core.admin.listEvalSuites(caller.accountId, params.widgetId!)),
  }),
  owner({
    method: 'get',
    path: `${evals}/suites/{suite}`,
    operationId: 'adminGetEvalSuite',
    summary: 'Read an eval suite',
    description: 'The suite and its cases.',
    responses: { 200: { schema: envelope(evalSuiteViewSchema), description: 'The suite.' } },
    errors: ['not_found'],
    handler: async ({ caller, core, params }) => ok(await core.admin.getEvalSuite(caller.accountId, { widgetId: params.widgetId!, name: params.suite! })),
  }),
  owner({
    method: 'put',
    path: `${evals}/suites/{suite}`,
    operationId: 'adminPutEvalSuite',
    summary: 'Store an eval suite',
    description: 'Creates or replaces the suite named in the path (JSON, or YAML with `Content-Type: application/yaml`; its `name` may be left out).',
    body: { schema: evalSuiteBodySchema, required: true, yaml: true },
    responses: { 200: { schema: envelope(evalSuiteViewSchema), description: 'The stored suite.' } },
    handler: async ({ caller, core, params, body }) => ok(await core.admin.putEvalSuite(caller.accountId, { widgetId: params.widgetId!, name: params.suite! }, body)),
  }),
  owner({
    method: 'post',
    path: `${evals}/suites/{suite}/cases`,
    operationId: 'adminAddEvalCase',
    summary: 'Add a conversation as an eval case',
    description:
      "The conversation's visitor messages become the case's `turns`, its last reply's sources `expect.cites` (and whether it answered, `expect.answered`); the suite is created when missing.",
    body: { schema: addEvalCaseRequestSchema, required: true },
    responses: { 201: { schema: envelope(evalSuiteViewSchema), description: 'The suite with the new case last.' } },
    errors: ['session_not_found'],
    handler: async ({ caller, core, params, body }) =>
      ok(await core.admin.addEvalCase(caller.accountId, { widgetId: params.widgetId!, name: params.suite! }, body), 201),
  }),
];
