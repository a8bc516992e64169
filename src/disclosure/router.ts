import { findKeywordStuffing, tokenize } from '../format/terms.js';
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
  /** A selected skill also needs at least this share of the best score (default 0.5). */
  readonly relativeThreshold?: number;
  /** Most skills selected (default 3). */
  readonly limit?: number;
  /** Most candidates ranked in the result (default 10). */
  readonly candidates?: number;
}

export interface RouteCandidate {
  readonly name: string;
  /** False for a skill of an untrusted source: ranked after every trusted match. */
  readonly trusted: boolean;
  readonly score: number;
  /** Each matched query term and what it contributed to the score. */
  readonly terms: Readonly<Record<string, number>>;
}

export interface RouteResult {
  /** Skills the text names explicitly with /name or $name, in order of mention. */
  readonly mentioned: readonly string[];
  /** Mentions that name no skill. */
  readonly unknownMentions: readonly string[];
  /** The best candidates: trusted ones first, then by relevance, highest first. */
  readonly ranked: readonly RouteCandidate[];
  /** The skills to activate: the mentioned ones, else the ranked ones above the thresholds. */
  readonly selected: readonly string[];
}

export { tokenize } from '../format/terms.js';

/**
 * Term frequency is capped so that a description stuffed with one word gains nothing by it; a
 * description found keyword-stuffed (`findKeywordStuffing`) counts each of its terms once, and a
 * name counts each of its words once.
 */
const MAX_TERM_FREQUENCY = 3;
const K1 = 1.2;
const B = 0.75;
const NAME_WEIGHT = 2;

interface Document {
  readonly name: string;
  readonly trusted: boolean;
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
      for (const token of new Set(tokenize(skill.name.replace(/-/g, ' ')))) add(token, NAME_WEIGHT);
      const description = sanitizeCatalogText(skill.description).text;
      const words = tokenize(description);
      for (const token of findKeywordStuffing(description) === undefined ? words : new Set(words))
        add(token, 1);
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
      this.#documents.push({
        name: skill.name,
        trusted: skill.trusted !== false,
        length,
        frequencies,
      });
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
    // Every candidate has a positive score: trusted ones come first, then the untrusted, so an
    // untrusted skill is never selected ahead of a trusted one that matches the task.
    const ranked = [...scores.entries()]
      .map(([index, value]) => {
        const document = this.#documents[index] as Document;
        return {
          name: document.name,
          trusted: document.trusted,
          score: Math.round(value.score * 1000) / 1000,
          terms: value.terms,
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
    const relative = options.relativeThreshold ?? 0.5;
    const best = ranked[0]?.score ?? 0;
    // Selection takes candidates in order and stops at the first that falls short: a trusted
    // skill that matches but falls short keeps every untrusted one (ranked after it) unselected.
    const passing = (candidate: RouteCandidate) =>
      candidate.score >= threshold && candidate.score >= best * relative;
    const shortfall = ranked.findIndex((candidate) => !passing(candidate));
    const selected =
      mentioned.length > 0
        ? mentioned
        : (shortfall === -1 ? ranked : ranked.slice(0, shortfall))
            .slice(0, options.limit ?? 3)
            .map((candidate) => candidate.name);
    return { mentioned, unknownMentions: unknown, ranked, selected };
  }
}
