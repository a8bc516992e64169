import type { ModelMessage } from 'ai';

/** Counts the tokens of a text. */
export type CountTokens = (text: string) => number;

/**
 * The size of a request as the context manager counts it: the system prompt and the tools once,
 * each message once (a message never changes once added), and a running total that only adds the
 * messages appended since the last count. A long session never counts its history again.
 */
export class TokenMeter {
  readonly #count: CountTokens;
  readonly #messages = new WeakMap<object, number>();
  readonly #parts = new WeakMap<object, number>();
  #fixedFor: { readonly system: string; readonly tools: unknown } | undefined;
  #fixed = 0;
  #list: readonly ModelMessage[] | undefined;
  #length = 0;
  #last: ModelMessage | undefined;
  #sum = 0;
  /** Messages counted (each once), for tests and benchmarks. */
  counted = 0;

  constructor(count: CountTokens) {
    this.#count = count;
  }

  get count(): CountTokens {
    return this.#count;
  }

  /** Tokens of the system prompt and the tools (counted again only when either changes). */
  fixed(system: string, tools: unknown): number {
    if (this.#fixedFor?.system !== system || this.#fixedFor.tools !== tools) {
      this.#fixed = this.#count(system) + this.#count(JSON.stringify(tools));
      this.#fixedFor = { system, tools };
    }
    return this.#fixed;
  }

  /** Tokens of one message, counted once. */
  message(message: ModelMessage): number {
    let size = this.#messages.get(message);
    if (size === undefined) {
      size = this.#count(JSON.stringify(message));
      this.#messages.set(message, size);
      this.counted += 1;
    }
    return size;
  }

  /** Tells the meter a message's size, counted some other way (a message the caller just built). */
  remember(message: ModelMessage, tokens: number): void {
    this.#messages.set(message, tokens);
  }

  /** Tokens of one part's text (a tool output, say), counted once per part. */
  part(part: object, text: string): number {
    let size = this.#parts.get(part);
    if (size === undefined) {
      size = this.#count(text);
      this.#parts.set(part, size);
    }
    return size;
  }

  /** Tokens of a list of messages; the same list grown since the last call adds only its new ones. */
  messages(list: readonly ModelMessage[]): number {
    const grown =
      list === this.#list &&
      list.length >= this.#length &&
      (this.#length === 0 || list[this.#length - 1] === this.#last);
    if (!grown) {
      this.#sum = 0;
      this.#length = 0;
    }
    for (let index = this.#length; index < list.length; index += 1)
      this.#sum += this.message(list[index] as ModelMessage);
    this.#list = list;
    this.#length = list.length;
    this.#last = list[list.length - 1];
    return this.#sum;
  }

  /** Forgets the running total (the list was changed in place). */
  reset(): void {
    this.#list = undefined;
    this.#length = 0;
    this.#sum = 0;
  }

  /** The whole request: system, tools and messages. */
  request(system: string, tools: unknown, list: readonly ModelMessage[]): number {
    return this.fixed(system, tools) + this.messages(list);
  }
}
