import { stemmer } from 'stemmer';
import { removeInvisible } from '../format/unicode.js';

/**
 * How the router reads text: words (Unicode letters and digits), lower-cased, English stop
 * words and the words every request is made of ("please", "need", "help") dropped, English
 * words reduced to their stem (Porter: "slides" and "slide", "debugging" and "debug" meet), and
 * a few file formats joined to the words people use for them ("pptx" and "slides").
 */

/**
 * Words that say nothing about what a task is about: articles, pronouns, auxiliaries,
 * prepositions, and the words of asking itself. A skill never matches on these.
 */
export const ROUTER_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing done down during each either else etc even ever every few for from further get gets getting got had has have having he her here hers him his how i if in into is it its itself just let lets like may me might mine more most much must my myself need needs needed no nor not now of off on once one only or other our ours out over own please per quite rather really same she should so some something such than that the their theirs them then there these they this those though through thus to too under until up upon us very via want wants wanted was way we were what whatever when whenever where whether which while who whom whose why will with within without would yes yet you your yours yourself ' +
    // Asking for help is not a topic.
    'help helps helping thing things stuff okay ok kindly able'
  ).split(' '),
);

/** File formats and the words people use for them: a task naming one finds the other. */
const ALIASES: ReadonlyArray<readonly string[]> = [
  ['pptx', 'powerpoint', 'slide', 'deck'],
  ['xlsx', 'excel', 'spreadsheet', 'workbook'],
  ['docx', 'word'],
  ['csv', 'spreadsheet'],
  ['md', 'markdown'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
  ['k8s', 'kubernetes'],
  ['gif', 'anim'],
];

let aliasTable: Map<string, string[]> | undefined;

/** Each format word's stem and the stems of the others of its group, made on first use. */
function aliasesOf(): Map<string, string[]> {
  if (aliasTable !== undefined) return aliasTable;
  aliasTable = new Map();
  for (const group of ALIASES) {
    for (const word of group) {
      const stem = stemWord(word);
      const others = group.map(stemWord).filter((other) => other !== stem);
      aliasTable.set(stem, [...(aliasTable.get(stem) ?? []), ...others]);
    }
  }
  return aliasTable;
}

/** The stem of a lower-case word: Porter for English words, the word itself otherwise. */
export function stemWord(word: string): string {
  return word.length > 3 && /^[a-z]+$/.test(word) ? stemmer(word) : word;
}

const cache = new Map<string, string>();

/** One word as the router indexes it: its stem, or undefined for a stop word or a one-letter word. */
function term(word: string): string | undefined {
  if (word.length < 2 || ROUTER_STOP_WORDS.has(word)) return undefined;
  let stem = cache.get(word);
  if (stem === undefined) {
    stem = stemWord(word);
    if (cache.size < 50_000) cache.set(word, stem);
  }
  return stem;
}

export interface AnalyzedText {
  /** The terms in order (stems, without stop words). */
  readonly terms: string[];
  /** Words left out as stop words, in order. */
  readonly dropped: string[];
}

/**
 * The terms of a text in order, without stop words. camelCase and letter-digit boundaries
 * split words ("ViewModel", "p5js"); hyphens, dots and underscores always do.
 */
export function analyze(text: string): AnalyzedText {
  const terms: string[] = [];
  const dropped: string[] = [];
  const clean = removeInvisible(text).replace(/(\p{Ll}{2})(\p{Lu})/gu, '$1 $2');
  for (const match of clean.toLowerCase().matchAll(/[\p{L}\p{M}]+|\p{N}+/gu)) {
    const word = match[0];
    const stem = term(word);
    if (stem === undefined) {
      if (word.length > 1) dropped.push(word);
    } else terms.push(stem);
  }
  return { terms, dropped };
}

/** The terms a task term also stands for (a format and its words), if any. */
export function aliases(stem: string): readonly string[] {
  return aliasesOf().get(stem) ?? [];
}

/** Adjacent pairs of terms, joined by a space: "code review" is not "review" alone. */
export function bigrams(terms: readonly string[]): string[] {
  const pairs: string[] = [];
  for (let index = 1; index < terms.length; index += 1)
    if (terms[index - 1] !== terms[index]) pairs.push(`${terms[index - 1]} ${terms[index]}`);
  return pairs;
}

/**
 * Where a description says when to use the skill ("Use when …", "Use this skill whenever …",
 * "Triggers on …"): that part is weighed apart from the rest. Undefined when it says none.
 */
export function triggerStart(description: string): number | undefined {
  const match =
    /\b(?:use (?:this(?: skill)? |it |me )?(?:when|whenever|for|if|to|before|after|on)|should be used when|triggers? (?:on|when|include)|when (?:the )?users? (?:asks?|wants?|needs?|requests?|mentions?))\b/i.exec(
      description,
    );
  return match?.index;
}
