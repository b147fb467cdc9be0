import { z } from 'zod';

/** The widget's theme defaults (domain `WidgetTheme`). */
export const widgetThemeSchema = z.object({
  primaryColor: z.string().optional(),
  position: z.enum(['bottom-right', 'bottom-left']).optional(),
});

/** `GET /widget/config` (DESIGN.md section 7): what a public key tells the widget about its widget. */
export const widgetConfigSchema = z.object({
  widgetId: z.string(),
  name: z.string(),
  greeting: z.string(),
  language: z.string(),
  theme: widgetThemeSchema,
});

export type WidgetConfig = z.infer<typeof widgetConfigSchema>;
