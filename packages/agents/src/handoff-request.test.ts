import { describe, expect, it } from 'vitest';
import { asksForPerson } from './handoff-request.js';

describe('asksForPerson', () => {
  it.each([
    'Can I talk to a person?',
    'I want to speak to a human',
    'talk to an agent please',
    'Connect me with a real person',
    'Human please',
    'agent',
    'Operator!',
    'Can I speak with one of your agents?',
    "I'd like to chat with someone from your team",
    'Je voudrais parler à quelqu’un',
    'Puis-je parler à un conseiller ?',
    'Un agent, s’il vous plaît',
    'Ich möchte mit einem Mitarbeiter sprechen',
    'Kann ich mit einem echten Menschen reden?',
    'Quiero hablar con una persona',
    '¿Puedo hablar con un agente?',
    'live agent',
  ])('recognises %j', (message) => {
    expect(asksForPerson(message)).toBe(true);
  });

  it.each([
    'Talk to you later',
    'What are your customer service hours?',
    'I need someone to explain the price of the backpack',
    'How many people fit in the tent?',
    'Do you ship to Spain?',
    'I want to talk about shipping',
    'Hello',
    '',
  ])('leaves %j to the AI', (message) => {
    expect(asksForPerson(message)).toBe(false);
  });
});
