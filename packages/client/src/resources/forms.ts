import { sessionPath } from '../paths.js';
import type { Transport } from '../transport.js';
import type { FormSubmissionBody, PostOptions, TurnResponse } from '../types.js';

/** Form submissions (spec 4.3). */
export interface FormsResource {
  /**
   * Answers the form a reply surfaced (`reply.forms[0].formId` and its question ids). A rejected submission is
   * a 400 `form_rejected` naming the question in `field`; an accepted one runs a turn like `messages.send`.
   *
   * @example
   * const res = await client.forms.submit('wgt_123', 'sess_abc', {
   *   formId: 'contact_sales',
   *   answers: { name: 'Ada', email: 'ada@example.com' },
   * });
   */
  submit(widgetId: string, sessionId: string, body: FormSubmissionBody, options?: PostOptions): Promise<TurnResponse>;
}

export function createFormsResource(transport: Transport): FormsResource {
  return {
    submit: (widgetId, sessionId, body, options) => transport.post(`${sessionPath(widgetId, sessionId)}/form-submissions`, body, options),
  };
}
