import { z } from 'zod';
import { OPERATOR_ROLES } from '../store/operator-store.js';

/** Long enough that the sign-in throttle, not guessing, is what stops an attacker; bounded so hashing stays cheap. */
export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 256;

const emailSchema = z
  .string({ error: 'email must be a string' })
  .trim()
  .toLowerCase()
  .max(254, { error: 'email must be at most 254 characters' })
  .pipe(z.email({ error: 'email must be an email address such as ana@shop.example' }));

const newPasswordSchema = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .min(MIN_PASSWORD_LENGTH, { error: `${field} must be at least ${MIN_PASSWORD_LENGTH} characters` })
    .max(MAX_PASSWORD_LENGTH, { error: `${field} must be at most ${MAX_PASSWORD_LENGTH} characters` });

export const operatorRoleSchema = z.enum(OPERATOR_ROLES, { error: `role must be one of ${OPERATOR_ROLES.join(', ')}` });

/** `POST /admin/v1/sessions`: signing in to the console. */
export const loginRequestSchema = z
  .object({
    email: emailSchema,
    // Any length is checked against the hash (old passwords may predate a rule), within the body limit.
    password: z.string({ error: 'password must be a string' }).min(1, { error: 'password is required' }).max(MAX_PASSWORD_LENGTH),
  })
  .strict();

/** `POST /admin/v1/operators` and `svc operators create`. */
export const createOperatorRequestSchema = z
  .object({
    email: emailSchema,
    name: z.string().trim().min(1, { error: 'name must not be empty' }).max(200).optional(),
    role: operatorRoleSchema.default('agent'),
    password: newPasswordSchema('password'),
  })
  .strict();

/** `PUT /admin/v1/me/password`. */
export const changePasswordRequestSchema = z
  .object({
    currentPassword: z.string({ error: 'currentPassword must be a string' }).min(1, { error: 'currentPassword is required' }).max(MAX_PASSWORD_LENGTH),
    newPassword: newPasswordSchema('newPassword'),
  })
  .strict();

/** An operator as the admin API shows it: never its password hash. */
export const operatorSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: operatorRoleSchema,
  accountId: z.string(),
  createdAt: z.string(),
});

/** The answer to signing in and to `GET /admin/v1/me`. */
export const consoleSessionSchema = z.object({
  operator: operatorSchema,
  /** Send it back in `X-CSRF-Token` on every write made with the session cookie. */
  csrfToken: z.string(),
});

export type LoginRequest = z.input<typeof loginRequestSchema>;
export type CreateOperatorRequest = z.input<typeof createOperatorRequestSchema>;
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;
export type OperatorView = z.infer<typeof operatorSchema>;
export type ConsoleSessionView = z.infer<typeof consoleSessionSchema>;
