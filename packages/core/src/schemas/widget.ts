import { z } from 'zod';

const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a 6-digit hex colour such as #6366f1');
const webUrl = z
  .string()
  .max(2000)
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL');

/**
 * The widget's look, set by its owner (`svc widgets set-theme`, DESIGN.md 7) and returned by `/widget/config`;
 * a page's `bubble()` options still win. Strict: a misspelt key is an error naming it, not silently ignored.
 */
export const widgetThemeSchema = z
  .object({
    primaryColor: hexColor.optional(),
    /** Text on the panel's header (the widget's name when unset). */
    title: z.string().trim().min(1).max(80).optional(),
    subtitle: z.string().trim().min(1).max(120).optional(),
    /** The assistant's picture in the header. */
    avatarUrl: webUrl.optional(),
    /** `auto` follows the visitor's `prefers-color-scheme`. Default light. */
    darkMode: z.enum(['auto', 'light', 'dark']).optional(),
    position: z.enum(['bottom-right', 'bottom-left']).optional(),
    /** An http(s) image URL for the launcher (a page's `bubbleIcon` wins). */
    launcherIcon: webUrl.optional(),
  })
  .strict();

/** `GET /widget/config` (DESIGN.md section 7): what a public key tells the widget about its widget. */
export const widgetConfigSchema = z.object({
  widgetId: z.string(),
  name: z.string(),
  greeting: z.string(),
  language: z.string(),
  theme: widgetThemeSchema,
});

export type WidgetConfig = z.infer<typeof widgetConfigSchema>;
