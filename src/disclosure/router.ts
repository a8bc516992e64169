import { sanitizeCatalogText } from './sanitize.js';

/** What the router knows of a skill. */
export interface RoutableSkill {
  readonly name: string;
  readonly description: string;
}

export interface RouteOptions {
  /** Least score a skill needs to be selected (default 2.0). */
  readonly threshold?: number;
  /** A selected skill also needs at least this share of the best score (default 0.5). */
  readonly relativeThreshold?: number;
  /** Most skills selected (default 3). */
  readonly limit?: number;
  /** Most candidates ranked in the result (default 10). */
  readonly candidates?: number;
}

export interface RouteCandidate {
  readonly name: string;
  readonly score: number;
  /** Each matched query term and what it contributed to the score. */
  readonly terms: Readonly<Record<string, number>>;
}

export interface RouteResult {
  /** Skills the text names explicitly with /name or $name, in order of mention. */
  readonly mentioned: readonly string[];
  /** Mentions that name no skill. */
  readonly unknownMentions: readonly string[];
  /** The best candidates by relevance, highest first. */
  readonly ranked: readonly RouteCandidate[];
  /** The skills to activate: the mentioned ones, else the ranked ones above the thresholds. */
  readonly selected: readonly string[];
}

const stopWords = new Set(
  'a an and are as at be by can do for from has have how i if in into is it its me my of on or our so that the their them then there these this to use used uses using was we what when where which who will with you your'.split(
    ' ',
  ),
);

/** Lower-case word tokens (Unicode letters and digits), without stop words. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const token = match[0];
    if (token.length > 1 && !stopWords.has(token)) tokens.push(token);
  }
  return tokens;
}

/** Term frequency is capped so that a description stuffed with one word gains nothing by it. */
const MAX_TERM_FREQUENCY = 3;
const K1 = 1.2;
const B = 0.75;
const NAME_WEIGHT = 2;

interface Document {
  readonly name: string;
  readonly length: number;
  readonly frequencies: Map<string, number>;
}

const mention = /(?:^|[\s(["'])[/$]([\p{L}\p{N}][\p{L}\p{N}_-]{0,63})(?=$|[\s.,;:!?)"'\]])/gu;

/**
 * The Router form of activation: ranks skills by BM25 relevance of their name and description
 * to a task, with scores that explain themselves term by term, and honours explicit /name or
 * $name mentions first.
 */
export class SkillRouter {
  readonly #documents: Document[] = [];
  readonly #documentFrequency = new Map<string, number>();
  readonly #postings = new Map<string, number[]>();
  readonly #names: Set<string>;
  readonly #averageLength: number;

  constructor(skills: readonly RoutableSkill[]) {
    let totalLength = 0;
    for (const skill of skills) {
      const frequencies = new Map<string, number>();
      const add = (token: string, weight: number) =>
        frequencies.set(token, (frequencies.get(token) ?? 0) + weight);
      for (const token of tokenize(skill.name.replace(/-/g, ' '))) add(token, NAME_WEIGHT);
      for (const token of tokenize(sanitizeCatalogText(skill.description).text)) add(token, 1);
      let length = 0;
      for (const [token, count] of frequencies) {
        const capped = Math.min(count, MAX_TERM_FREQUENCY);
        frequencies.set(token, capped);
        length += capped;
        this.#documentFrequency.set(token, (this.#documentFrequency.get(token) ?? 0) + 1);
        const list = this.#postings.get(token);
        if (list === undefined) this.#postings.set(token, [this.#documents.length]);
        else list.push(this.#documents.length);
      }
      totalLength += length;
      this.#documents.push({ name: skill.name, length, frequencies });
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

  /** Ranks the skills for a task. */
  route(task: string, options: RouteOptions = {}): RouteResult {
    const { mentioned, unknown } = this.mentions(task);
    const count = this.#documents.length;
    const scores = new Map<number, { score: number; terms: Record<string, number> }>();
    for (const term of new Set(tokenize(task))) {
      const postings = this.#postings.get(term);
      if (postings === undefined) continue;
      const frequency = this.#documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
      for (const index of postings) {
        const document = this.#documents[index] as Document;
        const tf = document.frequencies.get(term) ?? 0;
        const contribution =
          (idf * (tf * (K1 + 1))) /
          (tf + K1 * (1 - B + (B * document.length) / this.#averageLength));
        const current = scores.get(index) ?? { score: 0, terms: {} };
        current.score += contribution;
        current.terms[term] = Math.round(contribution * 1000) / 1000;
        scores.set(index, current);
      }
    }
    const ranked = [...scores.entries()]
      .map(([index, value]) => ({
        name: (this.#documents[index] as Document).name,
        score: Math.round(value.score * 1000) / 1000,
        terms: value.terms,
      }))
      .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .slice(0, options.candidates ?? 10);
    const threshold = options.threshold ?? 2;
    const relative = options.relativeThreshold ?? 0.5;
    const best = ranked[0]?.score ?? 0;
    const selected =
      mentioned.length > 0
        ? mentioned
        : ranked
            .filter(
              (candidate) => candidate.score >= threshold && candidate.score >= best * relative,
            )
            .slice(0, options.limit ?? 3)
            .map((candidate) => candidate.name);
    return { mentioned, unknownMentions: unknown, ranked, selected };
  }
}
