import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createScriptedAgent } from '@svc/agents';
import { createMemoryStore } from '@svc/core';
import { operatorAdmin } from '../cli/operator-admin.js';
import { createLogger } from '../logger.js';
import { createRuntime } from '../runtime.js';

/** Prometheus's own checker (Debian package `prometheus`; `.ci/run` installs it). */
const PROMTOOL = '/usr/bin/promtool';

describe('/metrics as Prometheus tooling reads it', () => {
  it('passes `promtool check metrics` with the process metrics on (regression: svc_process_process_… names and gauges named _total), and times turns end to end and to the first token', async () => {
    expect(existsSync(PROMTOOL), `${PROMTOOL} is missing: apt-get install prometheus`).toBe(true);
    const store = createMemoryStore();
    const runtime = await createRuntime({
      config: { cursorSecret: 'test-cursor-secret-0123456789abcdef', syncTimeoutMs: 25_000, agentTimeoutMs: 60_000 },
      store,
      logger: createLogger('silent'),
      processMetrics: true,
      agent: createScriptedAgent(() => ({ content: 'Our tents ship in two days.' })),
    });
    const account = await operatorAdmin(store).createAccount({ name: 'Metrics', credits: 100 });
    const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Metrics' });
    const { key } = await operatorAdmin(store).createApiKey({ accountId: account.id, scopes: ['conversations:chat'] });
    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    const base = `/widgets/${widget.id}/conversations`;
    const created = await runtime.app.request(base, { method: 'POST', headers, body: JSON.stringify({ visitorId: 'v1' }) });
    const { sessionId } = ((await created.json()) as { data: { sessionId: string } }).data;
    for (const content of ['When do tents ship?', 'And boots?']) {
      const sent = await runtime.app.request(`${base}/${sessionId}/messages`, { method: 'POST', headers, body: JSON.stringify({ content }) });
      expect(sent.status).toBe(200);
    }

    const text = await (await runtime.app.request('/metrics')).text();
    const checked = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect({ status: checked.status, problems: `${checked.stdout}${checked.stderr}`.trim() }).toEqual({ status: 0, problems: '' });
    expect(text).not.toContain('svc_process_process_');
    expect(text).toContain('svc_process_cpu_seconds_total');
    expect(text).toContain('svc_nodejs_active_resources');
    expect(text).not.toMatch(/^svc_nodejs_active_\w+_total/m);
    expect(text).toMatch(/^svc_turn_duration_seconds_count\{outcome="ok"\} 2$/m);
    expect(text).toMatch(/^svc_agent_first_token_seconds_count 2$/m);
  });
});
