import { z } from 'zod';

/** Spec 2.1 / 8: 1-128 characters from `A-Z a-z 0-9 _ - . : @`. */
export const LABEL_PATTERN = /^[A-Za-z0-9_\-.:@]+$/;

export const visitorIdSchema = z
  .string({ error: 'visitorId must be a string' })
  .min(1, { error: 'visitorId must not be empty' })
  .max(128, { error: 'visitorId must be at most 128 characters' })
  .regex(LABEL_PATTERN, { error: 'visitorId may contain only letters, digits and _ - . : @' });

/** Client-chosen session ids follow the visitorId rules, so they are safe in paths and logs. */
export const sessionIdSchema = z
  .string({ error: 'sessionId must be a string' })
  .min(1, { error: 'sessionId must not be empty' })
  .max(128, { error: 'sessionId must be at most 128 characters' })
  .regex(LABEL_PATTERN, { error: 'sessionId may contain only letters, digits and _ - . : @' })
  // URL parsers treat these as path navigation even when encoded: a session so named could never be addressed.
  .refine((value) => value !== '.' && value !== '..', { error: 'sessionId cannot be "." or ".."' });

const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-(?:[A-Za-z]{2}|[0-9]{3}))?(-[A-Za-z0-9]{5,8}|-[0-9][A-Za-z0-9]{3})*$/;

export const languageSchema = z
  .string({ error: 'language must be a string' })
  .max(35, { error: 'language must be a BCP 47 code such as "en" or "pt-BR"' })
  .regex(BCP47, { error: 'language must be a BCP 47 code such as "en" or "pt-BR"' });

export function isIanaTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    // Offsets like "+02:00" are accepted by Intl but are not zone names.
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(value) || value === 'UTC';
  } catch {
    return false;
  }
}

export const timezoneSchema = z
  .string({ error: 'timezone must be a string' })
  .max(64, { error: 'timezone must be an IANA zone name such as "Europe/Paris"' })
  .refine(isIanaTimeZone, { error: 'timezone must be an IANA zone name such as "Europe/Paris"' });

/** Spec 2.2; the limits are those of the widget SDK (spec 8), applied to the API too. */
export const visitorContextSchema = z.object({
  name: z.string().max(100, { error: 'name must be at most 100 characters' }).optional(),
  email: z.email({ error: 'email must be an email address' }).max(254).optional(),
  phone: z.string().max(30, { error: 'phone must be at most 30 characters' }).optional(),
  company: z.string().max(100, { error: 'company must be at most 100 characters' }).optional(),
});

/** No control or format characters: the spec's "printable". */
const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]+$/u;

const plainClaim = z.union([z.string().max(1024), z.number(), z.boolean(), z.null()], {
  error: 'identity claims must be plain values (string, number, boolean or null)',
});

/** Spec 2.3: `sub` required; further claims allowed as plain values. */
export const identitySchema = z.object(
  {
    sub: z
      .string({ error: 'identity.sub must be a string' })
      .min(1, { error: 'identity.sub must not be empty' })
      .max(255, { error: 'identity.sub must be at most 255 characters' })
      .regex(PRINTABLE, { error: 'identity.sub must contain only printable characters' }),
    email: z.email({ error: 'identity.email must be an email address' }).optional(),
    email_verified: z.boolean({ error: 'identity.email_verified must be a boolean' }).optional(),
  },
  { error: 'identity must be an object with at least a "sub" claim' },
).catchall(plainClaim);

export const isoDateTime = z.iso.datetime({ offset: false });

/**
 * A link the service shows to visitors or follows itself (a document's or product's page, an image): http(s) only.
 * `z.url()` alone takes any scheme, and a `javascript:` URL in a knowledge base would reach a visitor's answer as a link.
 */
export const webUrl = (field: string) => z.url({ protocol: /^https?$/, error: `${field} must be an absolute http:// or https:// URL` });

/** A generated id read from a URL path (`wgt_…`, `kb_…`, `doc_…`): checked before any query (DESIGN.md section 4). */
function generatedIdSchema(name: string) {
  return z
    .string({ error: `${name} must be a string` })
    .min(1, { error: `${name} must not be empty` })
    .max(128, { error: `${name} must be at most 128 characters` })
    .regex(LABEL_PATTERN, { error: `${name} is not a valid id: letters, digits and _ - . : @ only` });
}

export const widgetIdSchema = generatedIdSchema('widgetId');
export const knowledgeBaseIdSchema = generatedIdSchema('kbId');
export const documentIdSchema = generatedIdSchema('documentId');
