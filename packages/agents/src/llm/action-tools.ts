import type { FormDefinition } from '@svc/core/store-kit';
import { tool } from 'ai';
import { z } from 'zod';
import { surfaceForm } from '../forms.js';
import type { TurnLog } from './turn-log.js';

/** Triggers the local agent reacts to are good examples of when a form fits; a few are enough for the model. */
const TRIGGER_EXAMPLES = 3;

function describeForm(form: FormDefinition): string {
  const triggers = (form.triggers ?? []).filter((phrase) => phrase.trim() !== '').slice(0, TRIGGER_EXAMPLES);
  const examples = triggers.length === 0 ? '' : `, e.g. when the visitor says ${triggers.map((t) => JSON.stringify(t)).join(' or ')}`;
  return `"${form.id}" (${form.title}${examples})`;
}

/**
 * `show_form`, offered only when the widget has forms: its `formId` is an enum of their ids, so the model
 * cannot name a form that does not exist. Null when there is no form to offer.
 */
export function createShowFormTool(forms: readonly FormDefinition[], log: TurnLog) {
  const [first, ...rest] = forms.map((form) => form.id);
  if (first === undefined) return null;
  return tool({
    description:
      `Shows the visitor a form to fill in, right under your reply. Forms: ${forms.map(describeForm).join('; ')}. ` +
      'Use it when the visitor asks for something a form handles; the form collects the details, so do not ask for them in the chat.',
    inputSchema: z.object({ formId: z.enum([first, ...rest]).describe('Id of the form to show.') }),
    execute: async ({ formId }) => {
      const form = forms.find((candidate) => candidate.id === formId);
      if (form === undefined) return { shown: false, reason: `Unknown form "${formId}".` };
      if (log.form !== null && log.form.formId !== formId) {
        return { shown: false, reason: `Only one form per reply: "${log.form.formId}" is already shown.` };
      }
      log.form = surfaceForm(form);
      return { shown: true, formId: form.id, title: form.title };
    },
  });
}

export function createEndConversationTool(log: TurnLog) {
  return tool({
    description:
      'Ends the conversation and closes the chat session. Call it only when the visitor clearly concludes (says goodbye, or confirms they need nothing more), never because a question is hard. Say goodbye in the same reply.',
    inputSchema: z.object({ reason: z.string().optional().describe('Why the conversation is over, for the logs.') }),
    execute: async () => {
      log.ended = true;
      return { ended: true };
    },
  });
}

/**
 * `request_handoff` (DESIGN.md section 6): the visitor wants a person. The session's handoff becomes `requested` and
 * the AI stays silent until an operator releases it, so the reply that calls it is the AI's last for now.
 */
export function createRequestHandoffTool(log: TurnLog) {
  return tool({
    description:
      'Hands the conversation to a person on the team. Call it when the visitor asks to talk to a person (a human, an agent, someone), or when they insist on help you cannot give. In the same reply, tell the visitor that a person will answer here shortly; you will not answer again until they are done.',
    inputSchema: z.object({ reason: z.string().optional().describe('Why a person is needed, for the team.') }),
    execute: async () => {
      log.handoff = true;
      return { handedOff: true };
    },
  });
}
