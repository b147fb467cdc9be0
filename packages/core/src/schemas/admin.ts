import { z } from 'zod';

/**
 * Resources of the admin API (`/admin/v1`, DESIGN.md section 10) that the public API does not have. Bodies are
 * strict: a misspelt field is a 400 naming it, not silently ignored.
 */

/** `GET /admin/v1/account`: the caller's account. */
export const accountViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Credits left; may dip below zero by the price of the last turn. */
  balance: z.number(),
  status: z.enum(['active', 'overdue']),
});
export type AccountViewBody = z.infer<typeof accountViewSchema>;
