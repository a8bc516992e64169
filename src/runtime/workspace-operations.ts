import type { Code } from '../codes.js';
import type {
  CommandRunRequest,
  ContentHasher,
  ScriptLimits,
  ScriptRunResult,
  ScriptWorkspace,
} from '../deps.js';
import { SkillhostError } from '../errors.js';
import { cleanText } from '../format/characters.js';
import type { WorkspaceEntry, WorkspaceFailure, WorkspaceFiles } from '../workspace-deps.js';
import { runResult } from './tools.js';
import { compileGlob, lineMatcher } from './workspace-search.js';

/**
 * What each host tool does once its call passed the schema, the policy and the approval: the
 * reads, listings, searches, writes and commands, each bounded, each result cleaned of control
 * and hidden characters before a model (or a terminal) sees it.
 */

/** Bytes of a file `workspace_read` reads (the start of a larger one). */
export const READ_MAX_BYTES = 1024 * 1024;
/** Lines shown by default, and the most one line shows. */
export const READ_DEFAULT_LINES = 2000;
const LINE_MAX_CHARS = 2000;
/** Most characters a result gives the model; the rest is named, not sent. */
export const OUTPUT_MAX_CHARS = 100_000;
const LIST_MAX_ENTRIES = 1000;
/** Entries a glob or grep walks at most, and how deep. */
const WALK_MAX_ENTRIES = 20_000;
const WALK_DEPTH = 32;
const GLOB_MAX_RESULTS = 500;
/** Largest file grep searches, and the most bytes one search reads. */
const GREP_FILE_MAX_BYTES = 1024 * 1024;
const GREP_TOTAL_MAX_BYTES = 32 * 1024 * 1024;
export const GREP_DEFAULT_RESULTS = 100;
const GREP_LINE_CHARS = 300;
/** Largest file an edit takes (it is read whole, changed and written back). */
export const EDIT_MAX_BYTES = 1024 * 1024;

/** What an operation returns: the model's text, and what the audit record keeps of it. */
export interface ToolOutcome {
  readonly text: string;
  readonly isError?: boolean;
  readonly code?: Code;
  readonly data?: Readonly<Record<string, unknown>>;
  readonly audit: Readonly<Record<string, unknown>>;
}

/** What the operations need: the workspace's files, the command runner and its limits. */
export interface OperationContext {
  readonly files: WorkspaceFiles;
  readonly hash: ContentHasher;
  readonly workspace: ScriptWorkspace | undefined;
  readonly runCommand: ((request: CommandRunRequest) => Promise<ScriptRunResult>) | undefined;
  readonly limits: ScriptLimits;
  readonly allowUnsandboxed: boolean;
}

const CODE_OF: Readonly<Record<WorkspaceFailure['problem'], Code>> = {
  missing: 'WORKSPACE_FILE_NOT_FOUND',
  outside: 'WORKSPACE_PATH_INVALID',
  secret: 'WORKSPACE_FILE_HIDDEN',
  protected: 'WORKSPACE_WRITE_REFUSED',
  symlink: 'WORKSPACE_WRITE_REFUSED',
  linked: 'WORKSPACE_WRITE_REFUSED',
  'read-only': 'WORKSPACE_WRITE_REFUSED',
  'not-regular': 'WORKSPACE_FILE_UNREADABLE',
  'not-directory': 'WORKSPACE_FILE_UNREADABLE',
  'too-large': 'WORKSPACE_FILE_UNREADABLE',
  unreadable: 'WORKSPACE_FILE_UNREADABLE',
  changed: 'WORKSPACE_FILE_CHANGED',
};

/** A file system refusal as the coded error the model reads. */
export function workspaceError(failure: WorkspaceFailure): SkillhostError {
  return new SkillhostError(CODE_OF[failure.problem], failure.message, {
    details: { problem: failure.problem },
  });
}

const encoder = new TextEncoder();
const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * The bytes as text, or undefined for a binary file (a NUL in its first 8 KiB, or not UTF-8).
 * A partial read may end inside a character: that character is dropped.
 */
export function textOf(bytes: Uint8Array, partial: boolean): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  let end = bytes.length;
  if (partial) {
    for (let index = end - 1; index >= Math.max(0, end - 4); index -= 1) {
      const byte = bytes[index] as number;
      if ((byte & 0xc0) === 0x80) continue;
      const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      if (index + need > end) end = index;
      break;
    }
  }
  try {
    return strict.decode(bytes.subarray(0, end));
  } catch {
    return undefined;
  }
}

/** Text for the model: control and hidden characters removed, and how many were. */
function clean(text: string): { text: string; removed: number } {
  const cleaned = cleanText(text);
  return { text: cleaned.text, removed: cleaned.control.count + cleaned.hidden.count };
}

function cut(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Lines joined until the output cap, and whether all of them fit. */
function capped(lines: readonly string[]): { text: string; shown: number } {
  let total = 0;
  let shown = 0;
  for (const line of lines) {
    if (total + line.length + 1 > OUTPUT_MAX_CHARS && shown > 0) break;
    total += line.length + 1;
    shown += 1;
  }
  return { text: lines.slice(0, shown).join('\n'), shown };
}

function removedNote(removed: number): string[] {
  return removed === 0
    ? []
    : [`[${removed} control or hidden characters were removed from what is shown]`];
}

export function readFile(
  context: OperationContext,
  input: { readonly path: string; readonly offset?: number; readonly limit?: number },
): ToolOutcome {
  const read = context.files.read(input.path, { maxBytes: READ_MAX_BYTES });
  if (!read.ok) throw workspaceError(read);
  const audit = { bytes: read.bytes.length, size: read.size };
  const decoded = textOf(read.bytes, read.partial);
  if (decoded === undefined)
    return {
      text: `${input.path} is a binary file (${sizeText(read.size)}); it is not shown as text.`,
      data: { path: input.path, size: read.size, binary: true },
      audit: { ...audit, binary: true },
    };
  const { text, removed } = clean(decoded);
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0)
    return { text: `${input.path} is empty.`, data: { path: input.path, size: 0 }, audit };
  const start = input.offset ?? 1;
  if (start > lines.length)
    return {
      text: `${input.path} has ${lines.length} lines; offset ${start} is past its end.`,
      data: { path: input.path, lines: lines.length },
      audit,
    };
  const wanted = lines
    .slice(start - 1, start - 1 + (input.limit ?? READ_DEFAULT_LINES))
    .map((line, index) => `${String(start + index).padStart(6)}\t${cut(line, LINE_MAX_CHARS)}`);
  const { text: body, shown } = capped(wanted);
  const last = start + shown - 1;
  const notes = [
    ...(last < lines.length || read.partial
      ? [
          `[lines ${start}-${last} of ${read.partial ? 'at least ' : ''}${lines.length}; read on with offset ${last + 1}]`,
        ]
      : []),
    ...(read.partial
      ? [
          `[the file is ${sizeText(read.size)}; only its first ${sizeText(READ_MAX_BYTES)} can be read]`,
        ]
      : []),
    ...removedNote(removed),
  ];
  return {
    text: [body, ...notes].join('\n'),
    data: { path: input.path, size: read.size, lines: lines.length, from: start, to: last },
    audit,
  };
}

function entryLine(entry: WorkspaceEntry, name: string): string {
  switch (entry.kind) {
    case 'directory':
      return `${name}/`;
    case 'file':
      return `${name} (${sizeText(entry.size)})`;
    case 'symlink':
      return `${name}@ (symbolic link)`;
    default:
      return `${name} (${entry.kind})`;
  }
}

function hiddenNote(hidden: number): string[] {
  return hidden === 0
    ? []
    : [
        `[${hidden} ${hidden === 1 ? 'entry is' : 'entries are'} hidden: files that commonly hold secrets]`,
      ];
}

export function listFolder(
  context: OperationContext,
  input: { readonly path: string },
): ToolOutcome {
  const listing = context.files.list(input.path, { maxEntries: LIST_MAX_ENTRIES, depth: 1 });
  if (!listing.ok) throw workspaceError(listing);
  const prefix = input.path === '' ? 0 : input.path.length + 1;
  const { text, removed } = clean(
    listing.entries.map((entry) => entryLine(entry, entry.path.slice(prefix))).join('\n'),
  );
  const notes = [
    ...(listing.truncated ? [`[only the first ${LIST_MAX_ENTRIES} entries are listed]`] : []),
    ...hiddenNote(listing.hidden),
    ...removedNote(removed),
  ];
  return {
    text: [listing.entries.length === 0 ? '(empty folder)' : text, ...notes].join('\n'),
    data: { path: input.path, entries: listing.entries.length, hidden: listing.hidden },
    audit: { entries: listing.entries.length, hidden: listing.hidden },
  };
}

/** The files below a folder (a walk bounded in entries and depth). */
function walk(context: OperationContext, path: string) {
  const listing = context.files.list(path, { maxEntries: WALK_MAX_ENTRIES, depth: WALK_DEPTH });
  if (!listing.ok) throw workspaceError(listing);
  return listing;
}

function walkNote(truncated: boolean): string[] {
  return truncated
    ? [`[the search stopped after ${WALK_MAX_ENTRIES} entries; narrow it with "path"]`]
    : [];
}

export function globFiles(
  context: OperationContext,
  input: { readonly pattern: string; readonly path: string },
): ToolOutcome {
  const matcher = compileGlob(input.pattern);
  const listing = walk(context, input.path);
  const prefix = input.path === '' ? 0 : input.path.length + 1;
  const matches = listing.entries.filter(
    (entry) => entry.kind !== 'directory' && matcher.test(entry.path.slice(prefix)),
  );
  const shown = matches.slice(0, GLOB_MAX_RESULTS);
  const { text, removed } = clean(shown.map((entry) => entry.path).join('\n'));
  const notes = [
    ...(matches.length > shown.length
      ? [`[${matches.length} files match; the first ${GLOB_MAX_RESULTS} are shown]`]
      : []),
    ...walkNote(listing.truncated),
    ...removedNote(removed),
  ];
  return {
    text: [matches.length === 0 ? 'No files match.' : text, ...notes].join('\n'),
    data: { matches: matches.length },
    audit: { matches: matches.length, walked: listing.entries.length },
  };
}

export function grepFiles(
  context: OperationContext,
  input: {
    readonly pattern: string;
    readonly path: string;
    readonly glob?: string;
    readonly regex?: boolean;
    readonly ignore_case?: boolean;
    readonly max_results?: number;
  },
): ToolOutcome {
  const test = lineMatcher(input.pattern, {
    regex: input.regex === true,
    ignoreCase: input.ignore_case === true,
  });
  // A filter without a slash matches a file's name at any depth (as ripgrep's --glob does).
  const filter = input.glob === undefined ? undefined : compileGlob(input.glob);
  const byName = input.glob !== undefined && !input.glob.includes('/');
  const limit = input.max_results ?? GREP_DEFAULT_RESULTS;
  let files: WorkspaceEntry[];
  let truncated = false;
  let hidden = 0;
  const single = context.files.read(input.path, { maxBytes: 0 });
  if (input.path !== '' && (single.ok || single.problem === 'too-large')) {
    files = [
      { path: input.path, kind: 'file', size: single.ok ? single.size : GREP_FILE_MAX_BYTES },
    ];
  } else {
    const listing = walk(context, input.path);
    truncated = listing.truncated;
    hidden = listing.hidden;
    const prefix = input.path === '' ? 0 : input.path.length + 1;
    files = listing.entries.filter((entry) => {
      if (entry.kind !== 'file') return false;
      if (filter === undefined) return true;
      const relative = entry.path.slice(prefix);
      return filter.test(byName ? (relative.split('/').at(-1) as string) : relative);
    });
  }
  const found: string[] = [];
  let more = false;
  let searched = 0;
  let total = 0;
  let skipped = 0;
  let stopped = false;
  let removed = 0;
  for (const file of files) {
    if (found.length >= limit) {
      more = true;
      break;
    }
    if (file.size > GREP_FILE_MAX_BYTES) {
      skipped += 1;
      continue;
    }
    if (total + file.size > GREP_TOTAL_MAX_BYTES) {
      stopped = true;
      break;
    }
    const read = context.files.read(file.path, { maxBytes: GREP_FILE_MAX_BYTES });
    if (!read.ok || read.partial) continue;
    total += read.bytes.length;
    const text = textOf(read.bytes, false);
    if (text === undefined) continue;
    searched += 1;
    const lines = text.split('\n');
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index] as string;
      if (!test(line)) continue;
      if (found.length >= limit) {
        more = true;
        break;
      }
      const shown = clean(`${file.path}:${index + 1}: ${cut(line.trim(), GREP_LINE_CHARS)}`);
      removed += shown.removed;
      found.push(shown.text);
    }
  }
  const { text, shown } = capped(found);
  const notes = [
    ...(more || shown < found.length
      ? [`[the first ${shown} matches are shown; narrow the search, or raise max_results]`]
      : []),
    ...(skipped > 0
      ? [`[${skipped} files larger than ${sizeText(GREP_FILE_MAX_BYTES)} were not searched]`]
      : []),
    ...(stopped ? [`[the search stopped after reading ${sizeText(GREP_TOTAL_MAX_BYTES)}]`] : []),
    ...walkNote(truncated),
    ...(hidden === 0
      ? []
      : [
          `[${hidden} ${hidden === 1 ? 'file that commonly holds' : 'files that commonly hold'} secrets ${hidden === 1 ? 'was' : 'were'} not searched]`,
        ]),
    ...removedNote(removed),
  ];
  return {
    text: [found.length === 0 ? 'No matches.' : text, ...notes].join('\n'),
    data: { matches: found.length, files: searched },
    audit: { matches: found.length, files_searched: searched, bytes_read: total },
  };
}

export function writeFile(
  context: OperationContext,
  input: { readonly path: string; readonly content: string },
): ToolOutcome {
  const bytes = encoder.encode(input.content);
  const written = context.files.write(input.path, bytes, {});
  if (!written.ok) throw workspaceError(written);
  return {
    text: `Wrote ${sizeText(written.bytes)} to ${input.path} (${written.created ? 'a new file' : 'its content replaced'}).`,
    data: { path: input.path, bytes: written.bytes, created: written.created },
    audit: { bytes: written.bytes, created: written.created, sha256: context.hash(bytes) },
  };
}

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length))
    count += 1;
  return count;
}

export function editFile(
  context: OperationContext,
  input: {
    readonly path: string;
    readonly old_text: string;
    readonly new_text: string;
    readonly replace_all?: boolean;
  },
): ToolOutcome {
  if (input.old_text === '')
    throw new SkillhostError('TOOL_INPUT_INVALID', 'workspace_edit: "old_text" is empty');
  const read = context.files.read(input.path, { maxBytes: EDIT_MAX_BYTES });
  if (!read.ok) throw workspaceError(read);
  if (read.partial)
    throw new SkillhostError(
      'WORKSPACE_FILE_UNREADABLE',
      `${input.path} is larger than the ${sizeText(EDIT_MAX_BYTES)} an edit takes; write it whole with workspace_write instead`,
    );
  const text = textOf(read.bytes, false);
  if (text === undefined)
    throw new SkillhostError(
      'WORKSPACE_FILE_UNREADABLE',
      `${input.path} is a binary file; only text files are edited`,
    );
  const count = occurrences(text, input.old_text);
  if (count === 0)
    throw new SkillhostError(
      'WORKSPACE_EDIT_MISMATCH',
      `old_text was not found in ${input.path}: read the file again (spaces, tabs and line ends must match exactly)`,
    );
  if (count > 1 && input.replace_all !== true)
    throw new SkillhostError(
      'WORKSPACE_EDIT_MISMATCH',
      `old_text occurs ${count} times in ${input.path}: include more of the surrounding text so that it occurs once, or set replace_all`,
    );
  // split/join, not String.replace: `$&` and the like in new_text stay as they are.
  const next =
    input.replace_all === true
      ? text.split(input.old_text).join(input.new_text)
      : (() => {
          const at = text.indexOf(input.old_text);
          return `${text.slice(0, at)}${input.new_text}${text.slice(at + input.old_text.length)}`;
        })();
  const bytes = encoder.encode(next);
  const written = context.files.write(input.path, bytes, { expect: read.identity });
  if (!written.ok) throw workspaceError(written);
  const replaced = input.replace_all === true ? count : 1;
  return {
    text: `Edited ${input.path}: ${replaced} replacement${replaced === 1 ? '' : 's'} (${sizeText(read.bytes.length)} → ${sizeText(bytes.length)}).`,
    data: { path: input.path, replacements: replaced, bytes: bytes.length },
    audit: { replacements: replaced, bytes: bytes.length, sha256: context.hash(bytes) },
  };
}

export async function runCommand(
  context: OperationContext,
  input: { readonly command: string; readonly timeout_seconds?: number },
): Promise<ToolOutcome> {
  const run = context.runCommand;
  if (run === undefined)
    throw new SkillhostError('SANDBOX_UNAVAILABLE', 'This host cannot run shell commands');
  const result = await run({
    command: input.command,
    limits: {
      ...context.limits,
      ...(input.timeout_seconds === undefined ? {} : { timeoutMs: input.timeout_seconds * 1000 }),
    },
    ...(context.workspace === undefined ? {} : { workspace: context.workspace }),
    ...(context.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
  });
  return {
    ...runResult(result),
    data: {
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      sandbox: result.sandbox,
      ...(result.written === undefined ? {} : { written: result.written }),
    },
    audit: {
      exit_code: result.exitCode,
      signal: result.signal,
      duration_ms: result.durationMs,
      sandbox: result.sandbox,
      timed_out: result.timedOut,
      ...(result.written === undefined ? {} : { files_written: result.written.count }),
    },
  };
}
