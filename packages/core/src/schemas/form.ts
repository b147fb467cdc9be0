import { z } from 'zod';
import { identitySchema, timezoneSchema } from './common.js';
import { responseTypeSchema } from './response-type.js';

export const questionKindSchema = z.enum([
  'text',
  'textarea',
  'email',
  'phone',
  'number',
  'boolean',
  'select',
  'multiselect',
  'date',
  'time',
  'datetime',
]);

export const formQuestionSchema = z.object({
  id: z.string().min(1).max(64),
  label: z.string().min(1).max(300),
  kind: questionKindSchema,
  required: z.boolean(),
  options: z.array(z.string().min(1).max(200)).min(1).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});

/** A form as a reply surfaces it (DESIGN.md section 4). */
export const surfacedFormSchema = z.object({
  formId: z.string(),
  title: z.string(),
  questions: z.array(formQuestionSchema),
});

/** A form as a widget defines it. */
export const formDefinitionSchema = z.object({
  id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, { error: 'form id may contain only letters, digits, _ and -' }),
  title: z.string().min(1).max(200),
  triggers: z.array(z.string().min(1).max(200)).optional(),
  questions: z.array(formQuestionSchema).min(1),
});

const answerValue = z.union([z.string().max(4000), z.number(), z.boolean(), z.array(z.string().max(200)).max(100), z.null()]);

/** POST …/form-submissions (spec 4.3). */
export const formSubmissionRequestSchema = z.strictObject({
  formId: z.string({ error: 'formId must be a string' }).min(1, { error: 'formId must not be empty' }).max(64),
  answers: z.record(z.string(), answerValue, { error: 'answers must be an object mapping question ids to answers' }),
  identity: identitySchema.optional(),
  response_type: responseTypeSchema.optional(),
  timezone: timezoneSchema.optional(),
});

export type FormSubmissionRequest = z.infer<typeof formSubmissionRequestSchema>;
