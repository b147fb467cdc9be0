import { z } from 'zod';

/**
 * How a turn's caller is answered (DESIGN.md sections 3a, 4): `sync` inline (202 past the sync wait), `stream` as
 * server-sent events, `callback` 202 at once and the reply POSTed to the key's callback URL. The turn itself is
 * the same durable job in every mode.
 */
export const responseTypeSchema = z.enum(['sync', 'stream', 'callback'], {
  error: 'response_type must be "sync", "stream" or "callback"',
});

export type ResponseType = z.infer<typeof responseTypeSchema>;
