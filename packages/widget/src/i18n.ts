/**
 * Interface strings in the session language; `{n}` is replaced by a number. Each language is a list, one string a
 * line (its constant in a comment), read by index: `t[PLACEHOLDER]`. The bundler writes the numbers where they are
 * read, so no key name ships at all, which matters within the 25 KB budget. The tuple type makes a missing or
 * extra string a compile error.
 */
export const CHAT = 0;
export const OPEN = 1;
export const CLOSE = 2;
export const PLACEHOLDER = 3;
export const SEND = 4;
export const TYPING = 5;
export const END = 6;
export const RATE = 7;
export const YES = 8;
export const NO = 9;
export const THANKS = 10;
export const RESTART = 11;
export const OFFLINE = 12;
export const UNREACHABLE = 13;
export const BUSY = 14;
export const WAIT = 15;
export const UNAVAILABLE = 16;
export const ERROR = 17;
export const RETRY = 18;
export const NOT_SENT = 19;
export const QUEUED = 20;
export const VIEW = 21;
export const AI = 22;
export const PERSON = 23;
export const SUBMIT = 24;
export const CHOOSE = 25;
export const REQUIRED = 26;
export const EMAIL = 27;
export const PHONE = 28;
export const NUMBER = 29;
export const OPTION = 30;
export const DATE = 31;
export const TIME = 32;
export const DATETIME = 33;
export const MIN = 34;
export const MAX = 35;
export const MIN_LENGTH = 36;
export const MAX_LENGTH = 37;

/** As many strings as there are constants above. */
type Tuple<N extends number, A extends string[] = []> = A['length'] extends N ? A : Tuple<N, [...A, string]>;
export type Strings = Readonly<Tuple<38>>;
type Table = Tuple<38>;

const en: Table = [
  'Chat', // CHAT
  'Open chat', // OPEN
  'Close chat', // CLOSE
  'Type your message…', // PLACEHOLDER
  'Send', // SEND
  'Typing…', // TYPING
  'End chat', // END
  'Conversation ended. Was it helpful?', // RATE
  'Yes', // YES
  'No', // NO
  'Thanks for your feedback!', // THANKS
  'New conversation', // RESTART
  'You are offline: messages will go out when you are back.', // OFFLINE
  'Cannot reach the chat service. Retrying…', // UNREACHABLE
  'Too many messages.', // BUSY
  'Try again in {n} s.', // WAIT
  'The chat is unavailable for now.', // UNAVAILABLE
  'Something went wrong.', // ERROR
  'Try again', // RETRY
  'Not sent', // NOT_SENT
  'Waiting to send', // QUEUED
  'View product', // VIEW
  'AI assistant', // AI
  '{n} (person)', // PERSON
  'Submit', // SUBMIT
  'Choose…', // CHOOSE
  'Required.', // REQUIRED
  'Enter an email address.', // EMAIL
  'Enter a phone number.', // PHONE
  'Enter a number.', // NUMBER
  'Choose an option.', // OPTION
  'Format: YYYY-MM-DD.', // DATE
  'Format: HH:MM.', // TIME
  'Enter a date and time.', // DATETIME
  'At least {n}.', // MIN
  'At most {n}.', // MAX
  'At least {n} characters.', // MIN_LENGTH
  'At most {n} characters.', // MAX_LENGTH
];

const fr: Table = [
  'Discussion', // CHAT
  'Ouvrir la discussion', // OPEN
  'Fermer la discussion', // CLOSE
  'Écrivez votre message…', // PLACEHOLDER
  'Envoyer', // SEND
  'Écrit…', // TYPING
  'Terminer', // END
  'Conversation terminée. Était-ce utile ?', // RATE
  'Oui', // YES
  'Non', // NO
  'Merci pour votre avis !', // THANKS
  'Nouvelle conversation', // RESTART
  'Hors ligne : vos messages partiront au retour de la connexion.', // OFFLINE
  'Service injoignable. Nouvel essai…', // UNREACHABLE
  'Trop de messages.', // BUSY
  'Réessayez dans {n} s.', // WAIT
  'La discussion est indisponible pour le moment.', // UNAVAILABLE
  'Une erreur est survenue.', // ERROR
  'Réessayer', // RETRY
  'Non envoyé', // NOT_SENT
  'En attente d’envoi', // QUEUED
  'Voir le produit', // VIEW
  'Assistant IA', // AI
  '{n} (personne)', // PERSON
  'Valider', // SUBMIT
  'Choisir…', // CHOOSE
  'Obligatoire.', // REQUIRED
  'Saisissez une adresse e-mail.', // EMAIL
  'Saisissez un numéro de téléphone.', // PHONE
  'Saisissez un nombre.', // NUMBER
  'Choisissez une option.', // OPTION
  'Format : AAAA-MM-JJ.', // DATE
  'Format : HH:MM.', // TIME
  'Saisissez date et heure.', // DATETIME
  'Au moins {n}.', // MIN
  'Au plus {n}.', // MAX
  'Au moins {n} caractères.', // MIN_LENGTH
  'Au plus {n} caractères.', // MAX_LENGTH
];

const de: Table = [
  'Chat', // CHAT
  'Chat öffnen', // OPEN
  'Chat schließen', // CLOSE
  'Nachricht eingeben…', // PLACEHOLDER
  'Senden', // SEND
  'Schreibt…', // TYPING
  'Beenden', // END
  'Unterhaltung beendet. War das hilfreich?', // RATE
  'Ja', // YES
  'Nein', // NO
  'Danke für Ihr Feedback!', // THANKS
  'Neue Unterhaltung', // RESTART
  'Offline: Ihre Nachrichten werden beim nächsten Verbindungsaufbau gesendet.', // OFFLINE
  'Chat-Dienst nicht erreichbar. Neuer Versuch…', // UNREACHABLE
  'Zu viele Nachrichten.', // BUSY
  'Erneut versuchen in {n} s.', // WAIT
  'Der Chat ist derzeit nicht verfügbar.', // UNAVAILABLE
  'Etwas ist schiefgelaufen.', // ERROR
  'Erneut versuchen', // RETRY
  'Nicht gesendet', // NOT_SENT
  'Wartet auf Versand', // QUEUED
  'Produkt ansehen', // VIEW
  'KI-Assistent', // AI
  '{n} (Mensch)', // PERSON
  'Absenden', // SUBMIT
  'Auswählen…', // CHOOSE
  'Pflichtfeld.', // REQUIRED
  'E-Mail-Adresse eingeben.', // EMAIL
  'Telefonnummer eingeben.', // PHONE
  'Zahl eingeben.', // NUMBER
  'Option wählen.', // OPTION
  'Format: JJJJ-MM-TT.', // DATE
  'Format: HH:MM.', // TIME
  'Datum und Uhrzeit eingeben.', // DATETIME
  'Mindestens {n}.', // MIN
  'Höchstens {n}.', // MAX
  'Mindestens {n} Zeichen.', // MIN_LENGTH
  'Höchstens {n} Zeichen.', // MAX_LENGTH
];

const es: Table = [
  'Chat', // CHAT
  'Abrir el chat', // OPEN
  'Cerrar el chat', // CLOSE
  'Escribe tu mensaje…', // PLACEHOLDER
  'Enviar', // SEND
  'Escribiendo…', // TYPING
  'Terminar', // END
  'Conversación terminada. ¿Te ha sido útil?', // RATE
  'Sí', // YES
  'No', // NO
  '¡Gracias por tu opinión!', // THANKS
  'Nueva conversación', // RESTART
  'Sin conexión: tus mensajes se enviarán al volver.', // OFFLINE
  'No se puede conectar. Reintentando…', // UNREACHABLE
  'Demasiados mensajes.', // BUSY
  'Inténtalo de nuevo en {n} s.', // WAIT
  'El chat no está disponible por ahora.', // UNAVAILABLE
  'Algo ha fallado.', // ERROR
  'Reintentar', // RETRY
  'No enviado', // NOT_SENT
  'Pendiente de envío', // QUEUED
  'Ver producto', // VIEW
  'Asistente de IA', // AI
  '{n} (persona)', // PERSON
  'Enviar', // SUBMIT
  'Elegir…', // CHOOSE
  'Obligatorio.', // REQUIRED
  'Introduce un correo electrónico.', // EMAIL
  'Introduce un teléfono.', // PHONE
  'Introduce un número.', // NUMBER
  'Elige una opción.', // OPTION
  'Formato: AAAA-MM-DD.', // DATE
  'Formato: HH:MM.', // TIME
  'Introduce fecha y hora.', // DATETIME
  'Como mínimo {n}.', // MIN
  'Como máximo {n}.', // MAX
  'Como mínimo {n} caracteres.', // MIN_LENGTH
  'Como máximo {n} caracteres.', // MAX_LENGTH
];

const TABLES: Record<string, Table> = { en, fr, de, es };

/** The strings for a BCP 47 tag (`fr-CA` uses `fr`); English when the language is not translated. */
export function stringsFor(language: string | undefined): Strings {
  return TABLES[(language ?? '').split('-')[0]!.toLowerCase()] ?? en;
}

/** Fills `{n}` in a string such as `t[MIN]` (a number) . */
export function fill(template: string, n: number | string): string {
  return template.replace('{n}', String(n));
}
