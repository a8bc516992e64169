import { findKeywordStuffing } from '../format/terms.js';
import { aliases, analyze, bigrams, triggerStart } from './route-terms.js';
import { sanitizeCatalogText } from './sanitize.js';

/** What the router knows of a skill. */
export interface RoutableSkill {
  readonly name: string;
  readonly description: string;
  /** Whether its source is trusted (default true): untrusted skills rank after trusted ones. */
  readonly trusted?: boolean;
}

export interface RouteOptions {
  /** Least score a skill needs to be selected (default 2.0). */
  readonly threshold?: number;
  /** A selected skill also needs at least this share of the best score (default 0.7). */
  readonly relativeThreshold?: number;
  /**
   * A selected skill also matches at least this share of what the task says, each term weighed
   * by its rarity (default 0.15), and under 0.4 it must score 1.25 times the next candidate:
   * "quarterly review" is no code review when every review skill matches "review" alike.
   */
  readonly coverage?: number;
  /** Most skills selected (default 3). */
  readonly limit?: number;
  /** Most candidates ranked in the result (default 10). */
  readonly candidates?: number;
}

/** Where a term of the task met the skill, and what each field gave. */
export interface TermMatch {
  readonly score: number;
  /** The rarity of the term among the skills (BM25's inverse document frequency). */
  readonly idf: number;
  /** Weighted occurrences per field: the name, the "use when" part, the rest of the description. */
  readonly fields: Readonly<Partial<Record<RouteField, number>>>;
  /** The task's word this term stands in for (a file format and its words). */
  readonly aliasOf?: string;
}

export type RouteField = 'name' | 'trigger' | 'description';

/** Why a ranked candidate was or was not selected. */
export type RouteVerdict =
  | 'mentioned'
  | 'selected'
  | 'below-threshold'
  | 'below-best'
  | 'low-coverage'
  | 'over-limit'
  | 'after-shortfall'
  | 'not-mentioned';

export interface RouteCandidate {
  readonly name: string;
  /** False for a skill of an untrusted source: ranked after every trusted match. */
  readonly trusted: boolean;
  readonly score: number;
  /** Each matched term (a stem, or two stems for a phrase) and what it contributed. */
  readonly terms: Readonly<Record<string, number>>;
  /** The share of the task's weight (by term rarity) that this skill matches, 0 to 1. */
  readonly coverage: number;
  /** Term by term: the fields it met and its rarity. */
  readonly matches: Readonly<Record<string, TermMatch>>;
  readonly verdict: RouteVerdict;
}

export interface RouteResult {
  /** Skills the text names explicitly with /name or $name, in order of mention. */
  readonly mentioned: readonly string[];
  /** Mentions that name no skill. */
  readonly unknownMentions: readonly string[];
  /** How the task was read: its terms (stems), the phrases, and the stop words left out. */
  readonly query: {
    readonly terms: readonly string[];
    readonly phrases: readonly string[];
    readonly dropped: readonly string[];
  };
  /** The best candidates: trusted ones first, then by relevance, highest first. */
  readonly ranked: readonly RouteCandidate[];
  /** The skills to activate: the mentioned ones, else the ranked ones above the thresholds. */
  readonly selected: readonly string[];
}

export { tokenize } from '../format/terms.js';

/**
 * BM25F over three fields. The name weighs most; the part of the description that says when to
 * use the skill weighs more than the rest. Term frequency saturates (K1), and a description
 * found keyword-stuffed counts each of its terms once, as a name counts each of its words once.
 */
const FIELD_WEIGHTS: Readonly<Record<RouteField, number>> = {
  name: 3,
  trigger: 1.5,
  description: 1,
};
const K1 = 1.2;
const B = 0.75;
const MAX_TERM_FREQUENCY = 3;
/** A phrase (two adjacent terms) found in the skill, as a term of its own, weighed so. */
const PHRASE_WEIGHT = 1.5;
/** A file format's words stand for it at this share of a real occurrence. */
const ALIAS_WEIGHT = 0.6;
/**
 * A term of the task found in the skill's name adds its rarity, shared among the name's words,
 * on top of BM25F: saturation would otherwise leave a name match worth little more than a
 * mention in passing, and a one-word name ("pdf") says more than one word of three.
 */
const NAME_BONUS = 1;
/** Coverage at which a match is taken as it is; under it, the best must stand out. */
const CLEAR_COVERAGE = 0.4;
/** Standing out: at least this many times the score of the next candidate. */
const DISTINCT = 1.25;
/**
 * A skill under 70% of the best score is still selected when it matches another part of the
 * task, named by a word of its name: at least this share of the task's weight that no skill
 * selected before it matches...
 */
const COMPLEMENT_NOVELTY = 0.25;
/** ...and scores at least this share of the best. */
const COMPLEMENT_SHARE = 0.4;

interface Document {
  readonly name: string;
  readonly trusted: boolean;
  /** Weighted length of the fields (unigrams only: phrases do not lengthen a skill). */
  readonly length: number;
  /** How many distinct terms its name has. */
  readonly nameTerms: number;
  /** Per term (and phrase): its weighted frequency over the fields, capped. */
  readonly terms: Map<string, number>;
  /** The terms of each field as indexed, kept to explain a match field by field. */
  readonly fields: ReadonlyArray<readonly [RouteField, readonly string[]]>;
}

const mention = /(?:^|[\s(["'])[/$]([\p{L}\p{N}][\p{L}\p{N}_-]{0,63})(?=$|[\s.,;:!?)"'\]])/gu;

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The terms of one skill, field by field, with the phrases of its name and description. */
function indexSkill(skill: RoutableSkill): Document {
  const description = sanitizeCatalogText(skill.description).text;
  const stuffed = findKeywordStuffing(description) !== undefined;
  const start = triggerStart(description);
  const raw: Array<readonly [RouteField, string[]]> = [
    ['name', [...new Set(analyze(skill.name.replace(/[-_.]/g, ' ')).terms)]],
    ['description', analyze(start === undefined ? description : description.slice(0, start)).terms],
    ['trigger', start === undefined ? [] : analyze(description.slice(start)).terms],
  ];
  const terms = new Map<string, number>();
  const fields: Array<readonly [RouteField, string[]]> = [];
  const cap = MAX_TERM_FREQUENCY * FIELD_WEIGHTS.name;
  let length = 0;
  const seen = new Set<string>();
  for (const [field, words] of raw) {
    // A stuffed description counts each of its terms once, over both of its parts.
    const kept =
      stuffed && field !== 'name'
        ? words.filter((word) => {
            if (seen.has(word)) return false;
            seen.add(word);
            return true;
          })
        : words;
    const weight = FIELD_WEIGHTS[field];
    for (const word of kept) terms.set(word, Math.min(cap, (terms.get(word) ?? 0) + weight));
    length += weight * kept.length;
    const pairs = new Set(bigrams(words));
    for (const pair of pairs)
      terms.set(pair, Math.min(cap, (terms.get(pair) ?? 0) + PHRASE_WEIGHT));
    fields.push([field, [...kept, ...pairs]]);
  }
  const nameTerms = (raw[0] as readonly [RouteField, string[]])[1].length;
  return { name: skill.name, trusted: skill.trusted !== false, length, nameTerms, terms, fields };
}

/** Where a term was found in a skill: its weighted occurrences in each field. */
function fieldsOf(document: Document, term: string): Partial<Record<RouteField, number>> {
  const found: Partial<Record<RouteField, number>> = {};
  const phrase = term.includes(' ');
  for (const [field, words] of document.fields) {
    let count = 0;
    for (const word of words) if (word === term) count += 1;
    if (count > 0) found[field] = round(count * (phrase ? PHRASE_WEIGHT : FIELD_WEIGHTS[field]));
  }
  return found;
}

/**
 * The Router form of activation: ranks skills for a task with BM25F over their name, the "use
 * when" part of their description and the rest, on word stems without stop words, with phrases
 * (two adjacent terms) as terms of their own, and a skill's score explained term by term and
 * field by field. A skill is selected only when it scores enough, near the best, and matches a
 * fair share of what the task says; explicit /name or $name mentions come first.
 */
export class SkillRouter {
  readonly #documents: Document[] = [];
  /** Per term, the documents holding it (its length is the term's document frequency). */
  readonly #postings = new Map<string, number[]>();
  readonly #names: Set<string>;
  readonly #averageLength: number;

  constructor(skills: readonly RoutableSkill[]) {
    let totalLength = 0;
    for (const skill of skills) {
      const document = indexSkill(skill);
      for (const term of document.terms.keys()) {
        const list = this.#postings.get(term);
        if (list === undefined) this.#postings.set(term, [this.#documents.length]);
        else list.push(this.#documents.length);
      }
      totalLength += document.length;
      this.#documents.push(document);
    }
    this.#names = new Set(skills.map((skill) => skill.name));
    this.#averageLength = this.#documents.length === 0 ? 1 : totalLength / this.#documents.length;
  }

  /** Skills named in the text as /name or $name, and mentions that match no skill. */
  mentions(text: string): { mentioned: string[]; unknown: string[] } {
    const mentioned: string[] = [];
    const unknown: string[] = [];
    for (const match of text.matchAll(mention)) {
      const name = match[1] as string;
      if (this.#names.has(name)) {
        if (!mentioned.includes(name)) mentioned.push(name);
      } else if (!unknown.includes(name) && /-|^[\p{Ll}\p{N}]+$/u.test(name)) unknown.push(name);
    }
    return { mentioned, unknown };
  }

  #idf(term: string): number {
    const count = this.#documents.length;
    const frequency = this.#postings.get(term)?.length ?? 0;
    return Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
  }

  /** Ranks the skills for a task. */
  route(task: string, options: RouteOptions = {}): RouteResult {
    const { mentioned, unknown } = this.mentions(task);
    const analyzed = analyze(task);
    const words = [...new Set(analyzed.terms)];
    const phrases = [...new Set(bigrams(analyzed.terms))];
    // The query's terms with their weights: its words, its phrases, and the words its file
    // formats stand for (at a lower weight, never more than the word itself).
    const query = new Map<string, { weight: number; aliasOf?: string }>();
    for (const word of words) query.set(word, { weight: 1 });
    for (const phrase of phrases) query.set(phrase, { weight: 1 });
    for (const word of words)
      for (const alias of aliases(word))
        if (!query.has(alias)) query.set(alias, { weight: ALIAS_WEIGHT, aliasOf: word });
    // What the task says, weighed by rarity; a word no skill has counts as the rarest.
    const unseen = Math.log(1 + (this.#documents.length + 0.5) / 0.5);
    const weightOf = (word: string) => (this.#postings.has(word) ? this.#idf(word) : unseen);
    const taskWeight = words.reduce((sum, word) => sum + weightOf(word), 0);
    const scores = new Map<
      number,
      {
        score: number;
        terms: Record<string, number>;
        matches: Record<string, TermMatch>;
        covered: Set<string>;
      }
    >();
    for (const [term, { weight, aliasOf }] of query) {
      const postings = this.#postings.get(term);
      if (postings === undefined) continue;
      const idf = this.#idf(term);
      const phrase = term.includes(' ');
      for (const index of postings) {
        const document = this.#documents[index] as Document;
        const tf = document.terms.get(term);
        if (tf === undefined) continue;
        // Phrases are not part of a skill's length: their frequency saturates without it.
        const norm = phrase ? 1 : 1 - B + (B * document.length) / this.#averageLength;
        const inName =
          !phrase && document.fields[0]?.[1].includes(term) === true
            ? (NAME_BONUS * idf * weight) / Math.max(1, document.nameTerms)
            : 0;
        const contribution = (weight * idf * (tf * (K1 + 1))) / (tf + K1 * norm) + inName;
        const current = scores.get(index) ?? {
          score: 0,
          terms: {},
          matches: {},
          covered: new Set(),
        };
        current.score += contribution;
        current.terms[term] = round(contribution);
        current.matches[term] = {
          score: round(contribution),
          idf: round(idf),
          fields: fieldsOf(document, term),
          ...(aliasOf === undefined ? {} : { aliasOf }),
        };
        if (!phrase) current.covered.add(aliasOf ?? term);
        scores.set(index, current);
      }
    }
    const coverageOf = (covered: Set<string>) =>
      taskWeight === 0
        ? 0
        : [...covered].reduce((sum, word) => sum + weightOf(word), 0) / taskWeight;
    // Every candidate has a positive score: trusted ones come first, then the untrusted, so an
    // untrusted skill is never selected ahead of a trusted one that matches the task.
    const ranked = [...scores.entries()]
      .map(([index, value]) => {
        const document = this.#documents[index] as Document;
        return {
          name: document.name,
          trusted: document.trusted,
          score: round(value.score),
          terms: value.terms,
          coverage: round(coverageOf(value.covered)),
          matches: value.matches,
          covered: value.covered,
        };
      })
      .sort(
        (a, b) =>
          Number(b.trusted) - Number(a.trusted) ||
          b.score - a.score ||
          (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
      )
      .slice(0, options.candidates ?? 10);
    const threshold = options.threshold ?? 2;
    const relative = options.relativeThreshold ?? 0.7;
    const minCoverage = options.coverage ?? 0.15;
    const limit = options.limit ?? 3;
    const best = ranked[0]?.score ?? 0;
    // What the skills selected so far match of the task: a skill under the best score that
    // matches another part of it ("summarise the CSV, then review the code") is judged on that.
    const coveredSoFar = new Set<string>();
    const novelty = (covered: ReadonlySet<string>) =>
      taskWeight === 0
        ? 0
        : [...covered]
            .filter((word) => !coveredSoFar.has(word))
            .reduce((sum, word) => sum + weightOf(word), 0) / taskWeight;
    const shortOf = (
      candidate: (typeof ranked)[number],
      index: number,
    ): RouteVerdict | undefined => {
      if (candidate.score < threshold) return 'below-threshold';
      // Another part of the task, named by a word of the skill's own name.
      const complement =
        coveredSoFar.size > 0 &&
        candidate.score >= best * COMPLEMENT_SHARE &&
        novelty(candidate.covered) >= COMPLEMENT_NOVELTY &&
        [...candidate.covered].some(
          (word) => !coveredSoFar.has(word) && candidate.matches[word]?.fields.name !== undefined,
        );
      if (candidate.score < best * relative && !complement) return 'below-best';
      if (candidate.coverage >= CLEAR_COVERAGE) return undefined;
      const next = ranked[index + 1]?.score ?? 0;
      return candidate.coverage >= minCoverage && candidate.score >= next * DISTINCT
        ? undefined
        : 'low-coverage';
    };
    // Selection takes candidates in order and stops at the first that falls short: a trusted
    // skill that matches but falls short keeps every untrusted one (ranked after it) unselected.
    const selected: string[] = [...mentioned];
    let stopped = false;
    const verdicts = ranked.map((candidate, index): RouteCandidate => {
      let verdict: RouteVerdict;
      if (mentioned.includes(candidate.name)) verdict = 'mentioned';
      else if (mentioned.length > 0) verdict = 'not-mentioned';
      else {
        const short = shortOf(candidate, index);
        if (stopped) verdict = short ?? 'after-shortfall';
        else if (short !== undefined) {
          stopped = true;
          verdict = short;
        } else if (selected.length >= limit) verdict = 'over-limit';
        else {
          selected.push(candidate.name);
          for (const word of candidate.covered) coveredSoFar.add(word);
          verdict = 'selected';
        }
      }
      const { covered: _covered, ...shown } = candidate;
      return { ...shown, verdict };
    });
    return {
      mentioned,
      unknownMentions: unknown,
      query: { terms: words, phrases, dropped: analyzed.dropped },
      ranked: verdicts,
      selected,
    };
  }
}
