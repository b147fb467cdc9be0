export { createAdmin } from './admin.js';
export type { Admin, AdminOptions } from './admin.js';
export { ANY_ACCOUNT } from './context.js';
export type { AccountScope, AdminContext } from './context.js';
export { accountView } from './accounts.js';
export type { AccountView } from './accounts.js';
export { currentIdentitySecret, DEFAULT_SESSION_TTL_SECONDS } from './widgets.js';
export type { CreateWidgetInput, WidgetSettings } from './widgets.js';
export { apiKeyRecord, describeKey, newKeyText, normaliseOrigin } from './keys.js';
export type { CreatedKey, CreateKeyInput, CreatePublicKeyInput, KeyView } from './keys.js';
export {
  DEFAULT_WEBHOOK_GRACE_SECONDS,
  MAX_WEBHOOK_GRACE_SECONDS,
  describeWebhook,
  parseLifecycleEvents,
  signingSecrets,
} from './webhooks.js';
export type { CreatedWebhook } from './webhooks.js';
export { knowledgeFileSchema } from './knowledge.js';
export type { ImportedKnowledge, KnowledgeFile } from './knowledge.js';
export { describeDelivery } from './deliveries.js';
export type { DeliveryView } from './deliveries.js';
export { redactCredentials } from './redact-url.js';
export { MAX_ANALYTICS_DAYS } from './analytics.js';
export type { Analytics, AnalyticsRange } from './analytics.js';
