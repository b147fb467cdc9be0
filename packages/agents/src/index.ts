export { createLocalAgent } from './local-agent.js';
export type { LocalAgentOptions } from './local-agent.js';
export { createInstantAgent, createScriptedAgent, INSTANT_REPLY } from './scripted-agent.js';
export type { ScriptedHandler } from './scripted-agent.js';
export { countTokens } from './tokens.js';
export { DEMO_KNOWLEDGE } from './demo/demo-knowledge.js';
export type { DemoDocument, DemoKnowledge } from './demo/demo-knowledge.js';
export { DEMO_FORMS } from './demo/demo-forms.js';
