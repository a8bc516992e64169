/**
 * A quoted value continued on a line at column 0, which YAML 1.2 rejects (a value's lines must
 * be indented more than its key) and the popular readers (PyYAML, the reference validator's)
 * accept:
 *
 *     description: "Extracts tables from PDFs.
 *     Use when the user mentions invoices."
 *
 * Read as those readers read it only when the meaning is not in doubt: the quote closes, with
 * nothing but a comment after it, and no line it swallows looks like a key of its own.
 */

export interface QuotedContinuation {
  /** The text with the continuation lines indented one step past their key. */
  readonly text: string;
  /** Where spaces were inserted (offsets into the original) and how many, in order. */
  readonly insertions: ReadonlyArray<{ readonly offset: number; readonly count: number }>;
  /** The key whose value continues at column 0, and where its first such line starts. */
  readonly key: string;
  readonly offset: number;
}

const opening = /^( *)([^\s#'"][^:#]*?|"[^"]*"|'[^']*'):[ \t]+(["'])/;
const looksLikeKey = /^ *[^\s#'"-][^:#]*:(?:[ \t]|$)/;

/** Whether `text` (after an opening quote) closes the quote, and where. */
function closing(text: string, quote: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    const character = text[index];
    if (quote === '"' && character === '\\') {
      index += 1;
      continue;
    }
    if (character !== quote) continue;
    if (quote === "'" && text[index + 1] === "'") {
      index += 1;
      continue;
    }
    return index;
  }
  return -1;
}

/**
 * The repair of every quoted value that continues at column 0, or undefined when there is none
 * to make or one of them is in doubt.
 */
export function repairQuotedContinuation(source: string): QuotedContinuation | undefined {
  const lines = source.split('\n');
  const starts: number[] = [];
  let position = 0;
  for (const line of lines) {
    starts.push(position);
    position += line.length + 1;
  }
  const insertions: Array<{ offset: number; count: number }> = [];
  let key: string | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const open = opening.exec(line);
    if (open === null) continue;
    const quote = open[3] as string;
    const indent = (open[1] as string).length;
    if (closing(line, quote, open[0].length) !== -1) continue;
    let closed = false;
    for (let next = index + 1; next < lines.length && !closed; next += 1) {
      const text = (lines[next] as string).replace(/\r$/, '');
      if (/^(?:---|\.\.\.)(?:\s|$)/.test(text)) return undefined;
      const end = closing(text, quote, 0);
      const lead = text.length - text.trimStart().length;
      if (lead <= indent && text.trim() !== '') {
        // A line that reads as a key means the quote was most likely never closed: not repaired.
        if (looksLikeKey.test(text) && end === -1) return undefined;
        insertions.push({ offset: starts[next] as number, count: indent + 1 - lead });
        key ??= (open[2] as string).replace(/^["']|["']$/g, '');
      }
      if (end === -1) continue;
      if (!/^\s*(?:#.*)?$/.test(text.slice(end + 1))) return undefined;
      closed = true;
      index = next;
    }
    if (!closed) return undefined;
  }
  if (key === undefined) return undefined;
  let repaired = '';
  let from = 0;
  for (const insertion of insertions) {
    repaired += `${source.slice(from, insertion.offset)}${' '.repeat(insertion.count)}`;
    from = insertion.offset;
  }
  repaired += source.slice(from);
  return { text: repaired, insertions, key, offset: (insertions[0] as { offset: number }).offset };
}

/** Maps an offset into the repaired text back to the original. */
export function originalOffset(repair: QuotedContinuation, offset: number): number {
  let shift = 0;
  let repairedStart = 0;
  for (const insertion of repair.insertions) {
    repairedStart = insertion.offset + shift;
    if (offset < repairedStart) break;
    if (offset < repairedStart + insertion.count) return insertion.offset;
    shift += insertion.count;
  }
  return offset - shift;
}
