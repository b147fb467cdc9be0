import { describe, expect, it } from 'vitest';
import { zeroCredits } from '../credits.js';
import { completedPayload, failedPayload } from '../engine/turns/payloads.js';
import { SvcError } from '../errors.js';
import type { TurnJob } from '../store/turn-job-store.js';
import { messageCompletedEventSchema, messageFailedEventSchema } from './callback.js';

const job = { sessionId: 'sess_1', widgetId: 'wgt_1' } as TurnJob;

describe('callback payload schemas (published as the OpenAPI webhooks)', () => {
  it('describe exactly the message.completed body the engine writes', () => {
    const reply = {
      messageId: 'msg_1',
      content: 'Hello',
      products: [],
      actions: [],
      sources: [],
      sessionEnded: false,
      credits: zeroCredits(),
      usage: { inputTokens: 1, outputTokens: 2 },
    };
    const body = JSON.parse(JSON.stringify(completedPayload(job, reply)));
    expect(messageCompletedEventSchema.strict().parse(body)).toEqual(body);
  });

  it('describe exactly the message.failed body the engine writes', () => {
    const body = JSON.parse(JSON.stringify(failedPayload(job, new SvcError('agent_unavailable', 'The AI failed.'))));
    expect(messageFailedEventSchema.strict().parse(body)).toEqual(body);
  });
});
