import { describeDelivery } from './admin/deliveries.js';
import { describeKey } from './admin/keys.js';
import { describeConsoleSession, describeOperator } from './admin/operators.js';
import { describeWebhook } from './admin/webhooks.js';
import { describeWidget } from './admin/widget-view.js';
import { currentIdentitySecret } from './admin/widgets.js';

/**
 * Resources as the admin API and the CLI show them: what an operation returns (a stored widget, key, webhook…) turned
 * into its view, with every secret left out but the ones a view exists to show once. Adapters call these instead of
 * picking fields, so the console, the API and the command line show the same thing.
 */
export const views = {
  widget: describeWidget,
  /** A widget's identity secret now in force (the newest; older ones only verify during their grace period). */
  identitySecret: currentIdentitySecret,
  key: describeKey,
  webhook: describeWebhook,
  delivery: describeDelivery,
  operator: describeOperator,
  consoleSession: describeConsoleSession,
} as const;
