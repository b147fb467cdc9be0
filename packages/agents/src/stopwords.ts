/**
 * Words that say nothing about the topic of a question, folded like `foldText` output (no accents, elisions
 * split off). One set for all languages: visitors mix languages, and a French stopword is never the topic of
 * an English question. Words that are content in another language (`pain`, `gift`, `rat`) stay out.
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

export const STOPWORDS: ReadonlySet<string> = new Set(
  [ENGLISH, FRENCH, GERMAN, SPANISH].flatMap((list) => list.split(/\s+/)).filter((word) => word !== ''),
);
