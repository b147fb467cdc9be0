/**
 * The fixed sentences of the local agent, per language. Arguments arrive already escaped Markdown; the
 * phrases only add plain words around them.
 */
export interface Phrases {
  /** Used when the widget has no greeting of its own in this language. Names like `Acme Assistant` must read well. */
  greeting(widgetName: string): string;
  greetingHint: string;
  thanks: string;
  farewell: string;
  /** The visitor asked for a person: the AI steps back until one answers. */
  handoff: string;
  /** `topic` is the visitor's key words, escaped, or null when there were none. */
  notFound(topic: string | null): string;
  notFoundHint: string;
  /** The quick reply offered when the agent does not know: its button label, and the message it sends (which asks for a person). */
  askPerson: { label: string; text: string };
  /** Offered after a miss when a form can put the visitor in touch with a person. */
  formHint(trigger: string): string;
  formLeadIn(title: string): string;
  formReceived(title: string): string;
  source: string;
  /** Products answer the question on their own. */
  productsLead(list: string): string;
  /** Products follow an answer from a document. */
  productsAlso(list: string): string;
}

const en: Phrases = {
  greeting: (name) => `Hello! You're chatting with ${name}.`,
  greetingHint: 'Ask me anything about our products, orders or services and I will look it up for you.',
  thanks: "You're welcome! Is there anything else I can help you with?",
  farewell: 'Thank you for chatting with us. Goodbye, and have a great day!',
  handoff: "Of course: I'm passing you to a person. Someone from our team will answer you here shortly.",
  notFound: (topic) =>
    topic === null
      ? "I couldn't find that in our knowledge base."
      : `I couldn't find anything about “${topic}” in our knowledge base.`,
  notFoundHint: 'Could you rephrase your question, or ask about another topic?',
  askPerson: { label: 'Talk to a person', text: 'I would like to talk to a person.' },
  formHint: (trigger) => `If you'd rather talk to a person, just say “${trigger}”.`,
  formLeadIn: (title) => `Sure! Please fill in the form below (**${title}**) and we'll get back to you.`,
  formReceived: (title) => `Thank you! We received your answers to **${title}** and will get back to you soon. Anything else I can help with?`,
  source: 'Source',
  productsLead: (list) => `Here is what I found in our catalogue: ${list}.`,
  productsAlso: (list) => `Related products: ${list}.`,
};

const fr: Phrases = {
  greeting: (name) => `Bonjour ! Vous discutez avec ${name}.`,
  greetingHint: 'Posez-moi vos questions sur nos produits, vos commandes ou nos services, je cherche pour vous.',
  thanks: 'Avec plaisir ! Puis-je vous aider pour autre chose ?',
  farewell: "Merci d'avoir discuté avec nous. Au revoir et bonne journée !",
  handoff: "Bien sûr : je vous passe à une personne. Quelqu'un de notre équipe va vous répondre ici sous peu.",
  notFound: (topic) =>
    topic === null
      ? "Je n'ai pas trouvé cela dans notre base de connaissances."
      : `Je n'ai rien trouvé sur « ${topic} » dans notre base de connaissances.`,
  notFoundHint: 'Pourriez-vous reformuler votre question, ou poser une question sur un autre sujet ?',
  askPerson: { label: 'Parler à une personne', text: 'Je voudrais parler à une personne.' },
  formHint: (trigger) => `Si vous préférez parler à une personne, écrivez simplement « ${trigger} ».`,
  formLeadIn: (title) => `Bien sûr ! Remplissez le formulaire ci-dessous (**${title}**) et nous reviendrons vers vous.`,
  formReceived: (title) => `Merci ! Nous avons bien reçu vos réponses (**${title}**) et reviendrons vers vous rapidement. Puis-je vous aider pour autre chose ?`,
  source: 'Source',
  productsLead: (list) => `Voici ce que j'ai trouvé dans notre catalogue : ${list}.`,
  productsAlso: (list) => `Produits associés : ${list}.`,
};

const de: Phrases = {
  greeting: (name) => `Hallo! Sie chatten mit ${name}.`,
  greetingHint: 'Fragen Sie mich zu unseren Produkten, Bestellungen oder Leistungen, ich schaue für Sie nach.',
  thanks: 'Gern geschehen! Kann ich Ihnen sonst noch helfen?',
  farewell: 'Danke für das Gespräch. Auf Wiedersehen und einen schönen Tag!',
  handoff: 'Gern: Ich leite Sie an einen Menschen weiter. Jemand aus unserem Team antwortet Ihnen gleich hier.',
  notFound: (topic) =>
    topic === null
      ? 'Dazu habe ich in unserer Wissensdatenbank nichts gefunden.'
      : `Zu „${topic}“ habe ich in unserer Wissensdatenbank nichts gefunden.`,
  notFoundHint: 'Könnten Sie Ihre Frage anders formulieren oder nach einem anderen Thema fragen?',
  askPerson: { label: 'Mit einem Menschen sprechen', text: 'Ich möchte mit einem Menschen sprechen.' },
  formHint: (trigger) => `Wenn Sie lieber mit einem Menschen sprechen möchten, schreiben Sie einfach „${trigger}“.`,
  formLeadIn: (title) => `Gern! Bitte füllen Sie das Formular unten aus (**${title}**), wir melden uns bei Ihnen.`,
  formReceived: (title) => `Danke! Wir haben Ihre Angaben (**${title}**) erhalten und melden uns bald. Kann ich sonst noch helfen?`,
  source: 'Quelle',
  productsLead: (list) => `Das habe ich in unserem Sortiment gefunden: ${list}.`,
  productsAlso: (list) => `Passende Produkte: ${list}.`,
};

const es: Phrases = {
  greeting: (name) => `¡Hola! Estás hablando con ${name}.`,
  greetingHint: 'Pregúntame lo que quieras sobre nuestros productos, pedidos o servicios y lo buscaré por ti.',
  thanks: '¡De nada! ¿Puedo ayudarte con algo más?',
  farewell: 'Gracias por hablar con nosotros. ¡Adiós y que tengas un buen día!',
  handoff: 'Por supuesto: te paso con una persona. Alguien de nuestro equipo te responderá aquí en breve.',
  notFound: (topic) =>
    topic === null
      ? 'No he encontrado eso en nuestra base de conocimientos.'
      : `No he encontrado nada sobre «${topic}» en nuestra base de conocimientos.`,
  notFoundHint: '¿Podrías reformular la pregunta o preguntar por otro tema?',
  askPerson: { label: 'Hablar con una persona', text: 'Quiero hablar con una persona.' },
  formHint: (trigger) => `Si prefieres hablar con una persona, escribe «${trigger}».`,
  formLeadIn: (title) => `¡Claro! Rellena el formulario de abajo (**${title}**) y nos pondremos en contacto contigo.`,
  formReceived: (title) => `¡Gracias! Hemos recibido tus respuestas (**${title}**) y te contactaremos pronto. ¿Puedo ayudarte con algo más?`,
  source: 'Fuente',
  productsLead: (list) => `Esto es lo que he encontrado en nuestro catálogo: ${list}.`,
  productsAlso: (list) => `Productos relacionados: ${list}.`,
};

// A Map, not an object: a language tag such as `constructor` must not find an inherited property.
const PHRASES: ReadonlyMap<string, Phrases> = new Map([
  ['en', en],
  ['fr', fr],
  ['de', de],
  ['es', es],
]);

/** The primary subtag of a BCP 47 tag, lower case: `fr-CA` → `fr`. */
export function primaryLanguage(tag: string): string {
  return tag.trim().split(/[-_]/)[0]?.toLowerCase() ?? '';
}

/** Phrases for a BCP 47 language, English when the language has none. */
export function phrasesFor(language: string): Phrases {
  return PHRASES.get(primaryLanguage(language)) ?? en;
}
