import { compareFiles, type FileDifferences } from './lockfile.js';

/** Most lines the exact diff compares (beyond, the whole file is shown as replaced). */
const MAX_DIFF_CELLS = 4_000_000;
const CONTEXT = 3;

/**
 * A unified diff of two texts (`---`/`+++` headers left to the caller): hunks with three lines of
 * context, from a longest-common-subsequence table. Empty when the texts are equal.
 */
export function diffLines(before: string, after: string): string[] {
  if (before === after) return [];
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.at(-1) === '' && b.at(-1) === '') {
    a.pop();
    b.pop();
  }
  type Op = {
    readonly kind: ' ' | '-' | '+';
    readonly text: string;
    readonly aLine: number;
    readonly bLine: number;
  };
  const ops: Op[] = [];
  if (a.length * b.length > MAX_DIFF_CELLS) {
    a.forEach((text, index) => {
      ops.push({ kind: '-', text, aLine: index + 1, bLine: 0 });
    });
    b.forEach((text, index) => {
      ops.push({ kind: '+', text, aLine: a.length, bLine: index + 1 });
    });
  } else {
    const width = b.length + 1;
    const table = new Uint32Array((a.length + 1) * width);
    for (let i = a.length - 1; i >= 0; i -= 1)
      for (let j = b.length - 1; j >= 0; j -= 1)
        table[i * width + j] =
          a[i] === b[j]
            ? (table[(i + 1) * width + j + 1] as number) + 1
            : Math.max(table[(i + 1) * width + j] as number, table[i * width + j + 1] as number);
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i] === b[j]) {
        ops.push({ kind: ' ', text: a[i] as string, aLine: i + 1, bLine: j + 1 });
        i += 1;
        j += 1;
      } else if (
        i < a.length &&
        (j === b.length ||
          (table[(i + 1) * width + j] as number) >= (table[i * width + j + 1] as number))
      ) {
        // Removals before additions, as diff -u shows them.
        ops.push({ kind: '-', text: a[i] as string, aLine: i + 1, bLine: j });
        i += 1;
      } else {
        ops.push({ kind: '+', text: b[j] as string, aLine: i, bLine: j + 1 });
        j += 1;
      }
    }
  }
  const lines: string[] = [];
  let index = 0;
  while (index < ops.length) {
    if ((ops[index] as Op).kind === ' ') {
      index += 1;
      continue;
    }
    let start = Math.max(0, index - CONTEXT);
    let end = index;
    // Extend the hunk while changes are within twice the context of each other.
    for (;;) {
      while (end < ops.length && (ops[end] as Op).kind !== ' ') end += 1;
      let next = end;
      while (next < ops.length && (ops[next] as Op).kind === ' ' && next - end < 2 * CONTEXT)
        next += 1;
      if (next < ops.length && (ops[next] as Op).kind !== ' ') end = next;
      else break;
    }
    const stop = Math.min(ops.length, end + CONTEXT);
    const hunk = ops.slice(start, stop);
    const aCount = hunk.filter((op) => op.kind !== '+').length;
    const bCount = hunk.filter((op) => op.kind !== '-').length;
    const first = hunk[0] as Op;
    const aStart = first.kind === '+' ? first.aLine + (aCount === 0 ? 0 : 1) : first.aLine;
    const bStart = first.kind === '-' ? first.bLine + (bCount === 0 ? 0 : 1) : first.bLine;
    lines.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const op of hunk) lines.push(`${op.kind}${op.text}`);
    index = stop;
    start = stop;
  }
  return lines;
}

/** One version of a skill, as an update compares two. */
export interface SkillVersion {
  readonly files: Readonly<Record<string, string>>;
  /** The text of its SKILL.md (undefined when it cannot be read). */
  readonly skillText: string | undefined;
  /** Its `allowed-tools`, as written. */
  readonly allowedTools: string | undefined;
}

/** What an update changes, as the user is shown before confirming it. */
export interface SkillChanges {
  readonly files: FileDifferences;
  /** Unified diff lines of SKILL.md (empty when unchanged). */
  readonly skillFileDiff: readonly string[];
  /** Scripts (under scripts/) added, changed and removed: each changed one needs approval again. */
  readonly scripts: FileDifferences;
  readonly allowedTools: {
    readonly before: string | undefined;
    readonly after: string | undefined;
    readonly added: readonly string[];
    readonly removed: readonly string[];
  };
}

/** The tool entries of an `allowed-tools` value (space-separated, parentheses kept together). */
function toolEntries(value: string | undefined): string[] {
  if (value === undefined) return [];
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of value) {
    if (character === '(') depth += 1;
    if (character === ')') depth = Math.max(0, depth - 1);
    if (/\s/.test(character) && depth === 0) {
      if (current !== '') entries.push(current);
      current = '';
    } else current += character;
  }
  if (current !== '') entries.push(current);
  return entries;
}

/** Compares two versions of a skill: files, SKILL.md line by line, scripts, allowed-tools. */
export function compareSkillVersions(before: SkillVersion, after: SkillVersion): SkillChanges {
  const files = compareFiles(before.files, after.files);
  const scripts = (list: readonly string[]) => list.filter((path) => path.startsWith('scripts/'));
  const beforeTools = toolEntries(before.allowedTools);
  const afterTools = toolEntries(after.allowedTools);
  return {
    files,
    skillFileDiff: diffLines(before.skillText ?? '', after.skillText ?? ''),
    scripts: {
      added: scripts(files.added),
      changed: scripts(files.changed),
      removed: scripts(files.removed),
    },
    allowedTools: {
      before: before.allowedTools,
      after: after.allowedTools,
      added: afterTools.filter((entry) => !beforeTools.includes(entry)),
      removed: beforeTools.filter((entry) => !afterTools.includes(entry)),
    },
  };
}
