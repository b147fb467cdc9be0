import type { Principal } from '../domain.js';
import { SvcError } from '../errors.js';
import type { WidgetConfig } from '../schemas/widget.js';
import type { EngineResult } from './context.js';
import type { EngineContext } from '../context.js';

/**
 * GET /widget/config (DESIGN.md section 7): what the embedded widget learns from its public key. A server key has
 * no widget of its own, so it is refused rather than answered with some widget of its account. Free.
 */
export async function getWidgetConfig(ctx: EngineContext, principal: Principal): Promise<EngineResult<WidgetConfig>> {
  if (principal.kind !== 'public' || !principal.widgetId) {
    throw new SvcError('insufficient_scope', 'GET /widget/config is for the widget: call it with a pk_live_ public key.');
  }
  const widget = await ctx.store.getWidget(principal.widgetId);
  if (!widget || widget.accountId !== principal.accountId) throw new SvcError('widget_not_found', `Widget ${principal.widgetId} was not found.`);
  const data: WidgetConfig = { widgetId: widget.id, name: widget.name, greeting: widget.greeting, language: widget.language, theme: widget.theme };
  return { status: 200, data, creditsConsumed: 0 };
}
