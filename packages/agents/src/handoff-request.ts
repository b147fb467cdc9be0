import { words } from './text.js';

/**
 * Recognises a visitor asking for a person (DESIGN.md section 6: "talk to a person / human / agent"), in the local
 * agent's languages (English, French, German, Spanish). Words are folded (lower case, no accents), so `Opérateur`
 * and `operateur` match alike.
 *
 * A message asks for a person when
 * - it names a person (`human`, `agent`, `quelqu'un`, `Mitarbeiter`…) within a few words of a verb of talking
 *   (`talk`, `speak`, `parler`, `sprechen`, `hablar`…), in either order (German puts the verb last); or
 * - it holds a phrase that means a person on its own (`real person`, `live agent`, `echter Mensch`…); or
 * - it is nothing but a person word and politeness (`Human please`, `Un agent, s'il vous plaît`).
 *
 * "Talk to you later" or "I need someone to explain the price" do not match: `you` is no person word, and `need` is
 * no verb of talking.
 */
export function asksForPerson(message: string): boolean {
  const tokens = words(message);
  if (tokens.length === 0) return false;
  if (positions(tokens, PERSON_PHRASE).length > 0) return true;
  const persons = positions(tokens, PERSON);
  if (persons.length === 0) return false;
  const verbs = positions(tokens, TALK);
  if (verbs.some((verb) => persons.some((person) => Math.abs(person.at - verb.at) <= WINDOW))) return true;
  return onlyPersonAndPoliteness(tokens, persons);
}

/** At most this many words between the verb and the person ("speak with one of your agents"). */
const WINDOW = 6;

const phrases = (list: string): string[][] =>
  list
    .split('|')
    .map((phrase) => phrase.trim())
    .filter((phrase) => phrase !== '')
    .map((phrase) => phrase.split(/\s+/));

/** Someone who is not the AI. */
const PERSON = phrases(`person | human | humans | agent | agents | someone | somebody | representative |
  rep | operator | staff | employee | manager | personne | humain | humaine | quelqu un | conseiller |
  conseillere | operateur | operatrice | vendeur | vendeuse | mensch | menschen | mitarbeiter | mitarbeiterin |
  berater | beraterin | jemand | jemandem | jemanden | persona | personas | agente | agentes | humano | humana | alguien | asesor | asesora |
  operador | operadora | empleado | empleada`);

/** Verbs (and their forms) of talking or being put through. */
const TALK = phrases(`talk | speak | chat | connect | transfer | reach | contact | talking | speaking | chatting |
  put me through | parler | discuter | joindre | contacter | mettre en relation | sprechen | reden |
  verbinden | chatten | kontaktieren | erreichen | hablar | contactar | comunicarme | comunicar | transferir`);

/**
 * Phrases that ask for a person without a verb. Not "customer service" and the like: "your customer service hours?"
 * is a question for the AI.
 */
const PERSON_PHRASE = phrases(`real person | real human | human being | human agent | live agent | live person |
  vraie personne | etre humain | echte person | echten menschen | echter mensch | persona real`);

/** Words that may surround a lone person word ("a human, please"). */
const POLITENESS = new Set(
  `a an the please pls now real live un une s il vous plait svp einen einem einer bitte mit un una por favor con i want
  need to with i d like would je veux voudrais ich mochte will quiero necesito`.split(/\s+/),
);

interface Hit {
  at: number;
  length: number;
}

function positions(tokens: readonly string[], list: readonly string[][]): Hit[] {
  const hits: Hit[] = [];
  for (let at = 0; at < tokens.length; at++) {
    for (const phrase of list) {
      if (phrase.every((word, offset) => tokens[at + offset] === word)) hits.push({ at, length: phrase.length });
    }
  }
  return hits;
}

function onlyPersonAndPoliteness(tokens: readonly string[], persons: readonly Hit[]): boolean {
  const covered = new Set<number>();
  for (const hit of persons) for (let i = 0; i < hit.length; i++) covered.add(hit.at + i);
  return tokens.every((token, at) => covered.has(at) || POLITENESS.has(token));
}
