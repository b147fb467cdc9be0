import type { FormDefinition, SurfacedForm } from '@svc/core/store-kit';
import { containsPhrase } from './text.js';

/** The first form, in the widget's order, with a trigger phrase in the message (whole words, any case). */
export function findTriggeredForm(forms: readonly FormDefinition[], message: string): FormDefinition | null {
  return forms.find((form) => (form.triggers ?? []).some((trigger) => containsPhrase(message, trigger))) ?? null;
}

/** The form as a reply carries it. A copy: the engine may store or serialise it while the widget lives on. */
export function surfaceForm(form: FormDefinition): SurfacedForm {
  return { formId: form.id, title: form.title, questions: structuredClone(form.questions) };
}

/** A trigger to suggest after a miss, so a visitor stuck with the knowledge base can reach a person. */
export function firstTrigger(forms: readonly FormDefinition[]): string | null {
  for (const form of forms) {
    const trigger = form.triggers?.find((phrase) => phrase.trim() !== '');
    if (trigger !== undefined) return trigger;
  }
  return null;
}
