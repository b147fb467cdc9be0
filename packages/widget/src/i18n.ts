/**
 * Interface strings in the session language; `{n}` is replaced by a number. Each language is a list in the order
 * of `KEYS` (one string a line, the key in a comment): the type makes a missing or extra string a compile error,
 * and the key names ship once instead of once per language, which matters within the 20 KB budget.
 */
const KEYS = [
  'chat',
  'open',
  'close',
  'placeholder',
  'send',
  'typing',
  'end',
  'rate',
  'yes',
  'no',
  'thanks',
  'restart',
  'offline',
  'unreachable',
  'busy',
  'wait',
  'unavailable',
  'error',
  'retry',
  'notSent',
  'queued',
  'view',
  'ai',
  'person',
  'handoff',
  'joined',
  'submit',
  'choose',
  'required',
  'email',
  'phone',
  'number',
  'option',
  'date',
  'time',
  'datetime',
  'min',
  'max',
  'minLength',
  'maxLength',
] as const;

export type Strings = Record<(typeof KEYS)[number], string>;
/** A string for each key, in order (mapped through a type parameter, so tuple length carries over). */
type StringsFor<T> = { -readonly [I in keyof T]: string };
type Table = StringsFor<typeof KEYS>;

const en: Table = [
  'Chat', // chat
  'Open chat', // open
  'Close chat', // close
  'Type your message…', // placeholder
  'Send', // send
  'Typing…', // typing
  'End chat', // end
  'Conversation ended. Was it helpful?', // rate
  'Yes', // yes
  'No', // no
  'Thanks for your feedback!', // thanks
  'New conversation', // restart
  'You are offline: messages will go out when you are back.', // offline
  'Cannot reach the chat service. Retrying…', // unreachable
  'Too many messages.', // busy
  'Try again in {n} s.', // wait
  'The chat is unavailable for now.', // unavailable
  'Something went wrong.', // error
  'Try again', // retry
  'Not sent', // notSent
  'Waiting to send', // queued
  'View product', // view
  'AI assistant', // ai
  '{n} (person)', // person
  'A person will answer here.', // handoff
  '{n} joined the chat.', // joined
  'Submit', // submit
  'Choose…', // choose
  'Required.', // required
  'Enter an email address.', // email
  'Enter a phone number.', // phone
  'Enter a number.', // number
  'Choose an option.', // option
  'Format: YYYY-MM-DD.', // date
  'Format: HH:MM.', // time
  'Enter a date and time.', // datetime
  'At least {n}.', // min
  'At most {n}.', // max
  'At least {n} characters.', // minLength
  'At most {n} characters.', // maxLength
];

const fr: Table = [
  'Discussion', // chat
  'Ouvrir la discussion', // open
  'Fermer la discussion', // close
  'Écrivez votre message…', // placeholder
  'Envoyer', // send
  'Écrit…', // typing
  'Terminer', // end
  'Conversation terminée. Était-ce utile ?', // rate
  'Oui', // yes
  'Non', // no
  'Merci pour votre avis !', // thanks
  'Nouvelle conversation', // restart
  'Hors ligne : vos messages partiront au retour de la connexion.', // offline
  'Service injoignable. Nouvel essai…', // unreachable
  'Trop de messages.', // busy
  'Réessayez dans {n} s.', // wait
  'La discussion est indisponible pour le moment.', // unavailable
  'Une erreur est survenue.', // error
  'Réessayer', // retry
  'Non envoyé', // notSent
  'En attente d’envoi', // queued
  'Voir le produit', // view
  'Assistant IA', // ai
  '{n} (personne)', // person
  'Une personne va vous répondre ici.', // handoff
  '{n} a rejoint la discussion.', // joined
  'Valider', // submit
  'Choisir…', // choose
  'Obligatoire.', // required
  'Saisissez une adresse e-mail.', // email
  'Saisissez un numéro de téléphone.', // phone
  'Saisissez un nombre.', // number
  'Choisissez une option.', // option
  'Format : AAAA-MM-JJ.', // date
  'Format : HH:MM.', // time
  'Saisissez date et heure.', // datetime
  'Au moins {n}.', // min
  'Au plus {n}.', // max
  'Au moins {n} caractères.', // minLength
  'Au plus {n} caractères.', // maxLength
];

const de: Table = [
  'Chat', // chat
  'Chat öffnen', // open
  'Chat schließen', // close
  'Nachricht eingeben…', // placeholder
  'Senden', // send
  'Schreibt…', // typing
  'Beenden', // end
  'Unterhaltung beendet. War das hilfreich?', // rate
  'Ja', // yes
  'Nein', // no
  'Danke für Ihr Feedback!', // thanks
  'Neue Unterhaltung', // restart
  'Offline: Ihre Nachrichten gehen raus, sobald Sie wieder online sind.', // offline
  'Chat-Dienst nicht erreichbar. Neuer Versuch…', // unreachable
  'Zu viele Nachrichten.', // busy
  'Erneut versuchen in {n} s.', // wait
  'Der Chat ist derzeit nicht verfügbar.', // unavailable
  'Etwas ist schiefgelaufen.', // error
  'Erneut versuchen', // retry
  'Nicht gesendet', // notSent
  'Wartet auf Versand', // queued
  'Produkt ansehen', // view
  'KI-Assistent', // ai
  '{n} (Mensch)', // person
  'Eine Person antwortet Ihnen hier.', // handoff
  '{n} ist dem Chat beigetreten.', // joined
  'Absenden', // submit
  'Auswählen…', // choose
  'Pflichtfeld.', // required
  'E-Mail-Adresse eingeben.', // email
  'Telefonnummer eingeben.', // phone
  'Zahl eingeben.', // number
  'Option wählen.', // option
  'Format: JJJJ-MM-TT.', // date
  'Format: HH:MM.', // time
  'Datum und Uhrzeit eingeben.', // datetime
  'Mindestens {n}.', // min
  'Höchstens {n}.', // max
  'Mindestens {n} Zeichen.', // minLength
  'Höchstens {n} Zeichen.', // maxLength
];

const es: Table = [
  'Chat', // chat
  'Abrir el chat', // open
  'Cerrar el chat', // close
  'Escribe tu mensaje…', // placeholder
  'Enviar', // send
  'Escribiendo…', // typing
  'Terminar', // end
  'Conversación terminada. ¿Te ha sido útil?', // rate
  'Sí', // yes
  'No', // no
  '¡Gracias por tu opinión!', // thanks
  'Nueva conversación', // restart
  'Sin conexión: tus mensajes se enviarán al volver.', // offline
  'No se puede conectar. Reintentando…', // unreachable
  'Demasiados mensajes.', // busy
  'Inténtalo de nuevo en {n} s.', // wait
  'El chat no está disponible por ahora.', // unavailable
  'Algo ha fallado.', // error
  'Reintentar', // retry
  'No enviado', // notSent
  'Pendiente de envío', // queued
  'Ver producto', // view
  'Asistente de IA', // ai
  '{n} (persona)', // person
  'Una persona le responderá aquí.', // handoff
  '{n} se ha unido al chat.', // joined
  'Enviar', // submit
  'Elegir…', // choose
  'Obligatorio.', // required
  'Introduce un correo electrónico.', // email
  'Introduce un teléfono.', // phone
  'Introduce un número.', // number
  'Elige una opción.', // option
  'Formato: AAAA-MM-DD.', // date
  'Formato: HH:MM.', // time
  'Introduce fecha y hora.', // datetime
  'Como mínimo {n}.', // min
  'Como máximo {n}.', // max
  'Como mínimo {n} caracteres.', // minLength
  'Como máximo {n} caracteres.', // maxLength
];

const TABLES: Record<string, Table> = { en, fr, de, es };

/** The strings for a BCP 47 tag (`fr-CA` uses `fr`); English when the language is not translated. */
export function stringsFor(language: string | undefined): Strings {
  const table = TABLES[(language ?? '').split('-')[0]!.toLowerCase()] ?? en;
  return Object.fromEntries(KEYS.map((key, i) => [key, table[i]])) as Strings;
}

/** Fills `{n}` in a string such as `strings.min` (a number) or `strings.joined` (a name). */
export function fill(template: string, n: number | string): string {
  return template.replace('{n}', String(n));
}
