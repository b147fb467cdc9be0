/**
 * The one stopword list and the one English stemmer of the project: the memory store's BM25 ranking
 * (store/text-ranking.ts) and the local agent's sentence matching (@svc/agents) both use them, so the two cannot
 * disagree about which words count.
 *
 * Stopwords are folded (lower case, no accents, elisions split off). Words that are content in another language
 * (`pain`, `gift`, `rat`) stay out of every list.
 */
const ENGLISH = `a about above after again all also am an and any anything are as at be been being but by can
could did do does doing don done else for from get got had has have having he her here hers him his how i
if in into is it its just know let like ll m me might more most much must my need needs no nor not now of
off on once only or other our ours out over please re s same say see shall she should so some something
such t tell than that the their them then there these they this those through to too up us ve very want
wanted was we were what whats when where which while who whom why will with would you your yours`;

const FRENCH = `a ai au aussi aux avec avez avoir c ca ce ceci cela ces cet cette d dans de des du elle elles en
est et etre eu faire fait il ils j je l la le les leur lui m ma mais me mes moi mon n ne nos notre nous on
ou par pas peut peux pour pouvez puis qu que quel quelle quelles quels qui s sa se ses si son sont sur t
ta te tes toi ton tu un une vos votre vous y`;

const GERMAN = `aber als am an auch auf aus bei bin bis bist da das dass dem den der des dich dir du ein eine
einem einen einer eines er es euch euer fur gibt habe haben hast hat ich ihr ihre im in ist ja kann kannst
konnen mich mir mit nach nicht noch nur ob oder sich sie sind so uber um und uns unser vom von vor was
welche welcher welches wer wie wir wird zu zum zur`;

const SPANISH = `a al algo como con cual cuales cuando de del donde el ella ellas ellos en es esta estan este
esto estos ha hay la las le les lo los me mi mis mucho muy nos nuestra nuestro o para pero por puedo puede
pueden que quien se si sin son su sus te tiene tienen tu tus un una uno unos usted ustedes vosotros y yo`;

const list = (words: string): string[] => words.split(/\s+/).filter((word) => word !== '');

/** English function words: what the memory store drops from English text before ranking. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(list(ENGLISH));

/**
 * All languages at once, for matching a visitor's question: visitors mix languages, and a French stopword is
 * never the topic of an English question.
 */
export const STOPWORDS: ReadonlySet<string> = new Set([ENGLISH, FRENCH, GERMAN, SPANISH].flatMap(list));

/**
 * Light suffix stripping (plurals, -ing, -ed, final e) so that `sizes` meets `size`, `shipping` meets `ship` and
 * `returned` meets `return`. Deliberately simpler than Porter: it only has to conflate the common inflections of
 * a question with its passage. English-leaning; the plural rule also serves French and Spanish (`expéditions`).
 */
export function stemEnglish(word: string): string {
  let result = word;
  if (result.length <= 3) return result;
  if (result.endsWith('ies') && result.length > 4) result = `${result.slice(0, -3)}y`;
  else if (/(?:x|z|ch|sh|ss)es$/.test(result)) result = result.slice(0, -2);
  else if (result.endsWith('s') && !/(?:ss|us|is)$/.test(result)) result = result.slice(0, -1);
  if (result.endsWith('ing') && result.length > 5) result = undouble(result.slice(0, -3));
  else if (result.endsWith('ed') && result.length > 4) {
    const base = result.slice(0, -2);
    // `speed` and `need` are not past tenses: what remains needs a vowel and no trailing e.
    if (/[aeiouy]/.test(base) && !base.endsWith('e')) result = undouble(base);
  }
  // `uses` → `use`, not `us`: a final e goes only when a real stem remains.
  return result.endsWith('e') && result.length > 3 ? result.slice(0, -1) : result;
}

/** `shipp` → `ship`; doubled l, s and z stay (`fall`, `miss`, `buzz`). */
function undouble(word: string): string {
  const last = word.at(-1);
  return last !== undefined && word.at(-2) === last && /[bcdfghjkmnpqrtvw]/.test(last) ? word.slice(0, -1) : word;
}
