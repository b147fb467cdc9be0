export { createApp } from './http/app.js';
export type { AppOptions } from './http/app.js';
export type { AppEnv } from './http/auth.js';
export { createRuntime } from './runtime.js';
export type { Runtime, RuntimeOptions } from './runtime.js';
export { listen } from './node-server.js';
export type { RunningServer } from './node-server.js';
export { startServer } from './start.js';
export { loadConfig, ConfigError } from './config.js';
export type { ServerConfig } from './config.js';
export { openStore } from './open-store.js';
export { createLogger } from './logger.js';
export { seedDemo } from './seed.js';
export type { DemoOperator, DemoSeed } from './seed.js';
export { createAccount, setCredits } from './admin/accounts.js';
export { createApiKey, describeKey } from './admin/keys.js';
export type { CreateKeyInput, CreatedKey } from './admin/keys.js';
export {
  createWidget,
  currentIdentitySecret,
  DEFAULT_SESSION_TTL_SECONDS,
  rotateIdentitySecret,
  setWidgetForms,
  setWidgetTheme,
} from './admin/widgets.js';
export { createPublicKey, normaliseOrigin, rotateCallbackSecret } from './admin/keys.js';
export { describeDelivery, replayDelivery } from './admin/deliveries.js';
export { scryptPasswords } from './admin/passwords.js';
export { formatReply } from './reply-format.js';
export type { CreateWidgetInput } from './admin/widgets.js';
export { importKnowledgeBase, knowledgeFileSchema } from './admin/knowledge.js';
