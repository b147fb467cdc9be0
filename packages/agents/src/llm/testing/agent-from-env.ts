import type { Agent } from '@svc/core/store-kit';
import { createLlmAgentFromEnv } from '../provider-from-env.js';
import type { AiEnv, LlmAgentFromEnvOptions } from '../provider-from-env.js';

/** The agent a server with this environment would run; tests go through the same configuration path. */
export function agentFromEnv(env: AiEnv, options: LlmAgentFromEnvOptions): Agent {
  const agent = createLlmAgentFromEnv(env, options);
  if (agent === null) throw new Error('SVC_AI_PROVIDER is unset in this test environment');
  return agent;
}
