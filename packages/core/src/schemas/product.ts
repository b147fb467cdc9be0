import { z } from 'zod';
import { webUrl } from './common.js';

/** A knowledge-base product: spec 2.4's `id`, `name`, `price`, plus the optional catalogue fields. */
export const productSchema = z.object({
  id: z
    .string({ error: 'id must be a string' })
    .min(1, { error: 'id must not be empty' })
    .max(128, { error: 'id must be at most 128 characters' }),
  name: z.string({ error: 'name must be a string' }).min(1, { error: 'name must not be empty' }).max(300),
  price: z.number({ error: 'price must be a number' }).finite().nonnegative({ error: 'price must not be negative' }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, { error: 'currency must be an ISO 4217 code such as "EUR"' })
    .optional(),
  description: z.string().max(10_000).optional(),
  url: webUrl('url').optional(),
  imageUrl: webUrl('imageUrl').optional(),
});

export type ProductInput = z.infer<typeof productSchema>;
