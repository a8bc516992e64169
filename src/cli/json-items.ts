/** Items a streamed JSON document holds in memory at once before writing them out. */
const BATCH = 100;
const PREFIX = '{\n  "items": [\n    ';
const SUFFIX = '\n  ]\n}';

/**
 * The items of a JSON list two levels deep in a document (`{ "key": [ ... ] }`) as
 * `JSON.stringify(document, null, 2)` writes them, streamed: `add` items in order, `take` writes
 * the text of those added since (items separated by `,\n    `, the first preceded by nothing).
 * Items are stringified a hundred at a time, inside a list of their own: one indented stringify
 * per batch instead of one per item and a pass over its text to indent it again. The separator
 * is written apart from the batch's text, which is written as the stringifier made it (a part of
 * it, not a copy): a large output is never copied again to be joined.
 */
export function jsonItems(): {
  add(item: unknown): void;
  /** Writes the text of the items added since the last `take`, if any. */
  take(write: (text: string) => void): void;
  /** Whether `take` has something now that it is worth writing out. */
  readonly full: boolean;
} {
  let batch: unknown[] = [];
  let wrote = false;
  return {
    add: (item) => {
      batch.push(item);
    },
    take: (write) => {
      if (batch.length === 0) return;
      const text = JSON.stringify({ items: batch }, null, 2);
      batch = [];
      if (wrote) write(',\n    ');
      wrote = true;
      write(text.slice(PREFIX.length, text.length - SUFFIX.length));
    },
    get full() {
      return batch.length >= BATCH;
    },
  };
}

/** Text `JSON.stringify` writes as it is: no quote, backslash, control character or surrogate. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what needs escaping
const plainJson = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/**
 * `JSON.stringify(text)`, quicker for text that needs no escape (the usual name, path or
 * description): a test and a template instead of the stringifier's set-up, which costs more
 * than the text when a list writes ten thousand entries a few fields at a time.
 */
export function jsonString(text: string): string {
  return plainJson.test(text) ? `"${text}"` : JSON.stringify(text);
}
