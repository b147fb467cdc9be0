import type { Widget } from '../domain.js';
import type { z } from 'zod';
import type { widgetViewSchema } from '../schemas/admin.js';

/** A widget as the admin API shows it: everything its owner set, never its identity secrets. */
export function describeWidget(widget: Widget): z.infer<typeof widgetViewSchema> {
  return {
    id: widget.id,
    name: widget.name,
    instructions: widget.instructions,
    greeting: widget.greeting,
    language: widget.language,
    timezone: widget.timezone,
    sessionTtlSeconds: widget.sessionTtlSeconds,
    confidenceThreshold: widget.confidenceThreshold,
    knowledgeBaseIds: widget.knowledgeBaseIds,
    forms: widget.forms,
    theme: widget.theme,
    createdAt: widget.createdAt.toISOString(),
  };
}
