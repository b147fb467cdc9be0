import { words } from './text.js';

export type SmallTalk = 'greeting' | 'thanks' | 'farewell';

type Kind = SmallTalk | 'filler';

/** Phrases as `foldText` writes them: lower case, no accents, apostrophes turned into spaces. */
const PHRASES: Record<Kind, string> = {
  greeting: `hi | hello | hey | hiya | heya | howdy | yo | greetings | good morning | good afternoon |
    good evening | good day | bonjour | bonsoir | salut | coucou | hola | buenas | buenos dias | buenas tardes |
    buenas noches | hallo | guten tag | guten morgen | guten abend | servus | moin | gruss gott | gruezi | ciao |
    buongiorno | buonasera | ola | oi`,
  farewell: `bye | bye bye | goodbye | good bye | bye for now | see you | see you later | see you soon | see ya |
    farewell | take care | have a nice day | have a good day | have a great day | good night | that s all |
    that is all | that s it | that is it | that will be all | that s all i needed | that s all i need |
    that was all | that s everything | nothing else | no more questions | i m done | i am done | we re done |
    all done | au revoir | adieu | a bientot | a plus tard | bonne journee | bonne soiree | bonne nuit |
    c est tout | ce sera tout | rien d autre | tschuss | auf wiedersehen | auf wiederhoren | bis bald | bis dann |
    bis spater | schonen tag | einen schonen tag | das war s | das wars | das ist alles | mehr nicht | adios |
    hasta luego | hasta pronto | hasta la vista | nos vemos | eso es todo | nada mas | chao | arrivederci`,
  thanks: `thanks | thank you | thank you very much | thanks a lot | many thanks | thx | ty | cheers | merci |
    merci beaucoup | danke | danke schon | danke sehr | vielen dank | gracias | muchas gracias | grazie`,
  // Words that may surround a greeting, thanks or farewell without turning it into a question.
  filler: `ok | okay | oh | ah | great | perfect | cool | nice | awesome | alright | all right | well | so | then |
    again | and | also | very | much | a lot | for | your | the | help | all | everyone | everybody | there |
    team | friend | folks | guys | bot | assistant | you | too | no | yes | how are you | how are you doing |
    how s it going | what s up | super | parfait | tres | bien | genial | d accord | bon | et | pour | votre |
    aide | tout | le | monde | ca va | comment ca va | gut | prima | alles | klar | fur | ihre | hilfe | wie geht s |
    wie geht es | vale | perfecto | muy | por | su | ayuda | todos | que tal | como estas | como esta`,
};

interface Entry {
  words: string[];
  kind: Kind;
}

/** Longest phrases first, so `good bye` wins over a lone `good`, and `that s all` over the filler `all`. */
const ENTRIES: Entry[] = (Object.keys(PHRASES) as Kind[])
  .flatMap((kind) =>
    PHRASES[kind]
      .split('|')
      .map((phrase) => phrase.trim())
      .filter((phrase) => phrase !== '')
      .map((phrase) => ({ words: phrase.split(/\s+/), kind })),
  )
  .sort((a, b) => b.words.length - a.words.length);

function matchAt(message: string[], at: number, entry: Entry): boolean {
  return entry.words.every((word, offset) => message[at + offset] === word);
}

/**
 * Recognises a message that is only a greeting, thanks or farewell: every word must belong to such a phrase
 * or to the filler around one. So "thanks, that's all" is a farewell, while "thanks, and what about
 * shipping?" is a question. A farewell wins over thanks and greetings ("thanks, bye" ends the session).
 *
 * @param names words that may also appear, such as the widget's name ("hi Northwind").
 * @example
 * detectSmallTalk("Thanks, that's all I needed!") // 'farewell'
 */
export function detectSmallTalk(message: string, names: readonly string[] = []): SmallTalk | null {
  const tokens = words(message);
  const allowed = new Set(names.flatMap((name) => words(name)));
  const found = new Set<Kind>();
  let at = 0;
  while (at < tokens.length) {
    const token = tokens[at] ?? '';
    const entry = ENTRIES.find((candidate) => matchAt(tokens, at, candidate));
    if (entry !== undefined) {
      found.add(entry.kind);
      at += entry.words.length;
    } else if (allowed.has(token)) {
      at += 1;
    } else {
      return null;
    }
  }
  if (found.has('farewell')) return 'farewell';
  if (found.has('greeting')) return 'greeting';
  if (found.has('thanks')) return 'thanks';
  return null;
}

/**
 * The question after an opening greeting or thanks: "Thanks, and what about shipping to Australia?" → "what about
 * shipping to australia". What is searched is the topic; politeness words found in no document would otherwise
 * count against the answer's confidence. The message unchanged when it does not open with a greeting or thanks.
 */
export function questionPart(message: string): string {
  const tokens = words(message);
  let at = 0;
  let polite = false;
  while (at < tokens.length) {
    const entry = ENTRIES.find((candidate) => candidate.kind !== 'farewell' && matchAt(tokens, at, candidate));
    if (entry === undefined || (entry.kind === 'filler' && !polite)) break;
    polite ||= entry.kind !== 'filler';
    at += entry.words.length;
  }
  return polite && at < tokens.length ? tokens.slice(at).join(' ') : message;
}
