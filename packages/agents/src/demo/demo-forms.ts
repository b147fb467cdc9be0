import type { FormDefinition } from '@svc/core/store-kit';

/** The demo widget's forms: one way to reach a person, surfaced by the local agent on its trigger phrases. */
export const DEMO_FORMS: FormDefinition[] = [
  {
    id: 'contact_sales',
    title: 'Talk to sales',
    triggers: ['talk to sales', 'contact sales', 'speak to a human', 'call me back'],
    questions: [
      { id: 'name', label: 'Your name', kind: 'text', required: true },
      { id: 'email', label: 'Email address', kind: 'email', required: true },
      { id: 'company', label: 'Company', kind: 'text', required: false },
      { id: 'message', label: 'How can we help?', kind: 'textarea', required: false },
    ],
  },
];
