import { quote } from '../quote.js';
import { type CanonicalTool, COMMAND_TOOLS, canonicalTool, DEVICES } from './tools.js';

/** One entry of an `allowed-tools` value, understood. */
export interface ToolGrant {
  /** The entry as written. */
  readonly raw: string;
  /** UTF-16 offset of the entry in the value. */
  readonly offset: number;
  readonly syntax: 'tool' | 'device';
  /** The canonical tools it names. */
  readonly tools: readonly CanonicalTool[];
  /**
   * For a command tool: the argv prefix it allows (`Bash(git:*)` → ['git'], prefix true;
   * `Bash(git status)` → ['git', 'status'], prefix false). Undefined: any use of the tool.
   */
  readonly command?: { readonly argv: readonly string[]; readonly prefix: boolean };
  /** For a file tool: the glob it is limited to (`Read(references/**)`). */
  readonly path?: string;
  /** False when the entry is too broad to pre-approve anything (any shell command). */
  readonly preApprovable: boolean;
}

export type GrantProblemKind = 'unknown' | 'malformed' | 'too-broad';

export interface GrantProblem {
  readonly kind: GrantProblemKind;
  readonly raw: string;
  readonly offset: number;
  readonly message: string;
}

export interface ParsedAllowedTools {
  readonly grants: readonly ToolGrant[];
  readonly problems: readonly GrantProblem[];
}

/** Splits on whitespace and commas outside parentheses. */
function splitEntries(value: string): Array<{ text: string; offset: number }> {
  const entries: Array<{ text: string; offset: number }> = [];
  let depth = 0;
  let start = -1;
  for (let index = 0; index <= value.length; index += 1) {
    const character = value[index];
    const separator =
      character === undefined ||
      ((character === ' ' || character === ',' || character === '\t' || character === '\n') &&
        depth === 0);
    if (separator) {
      if (start !== -1) entries.push({ text: value.slice(start, index), offset: start });
      start = -1;
      continue;
    }
    if (start === -1) start = index;
    if (character === '(') depth += 1;
    else if (character === ')') depth = Math.max(0, depth - 1);
  }
  return entries;
}

/** Splits a command pattern into words, honouring simple quotes. */
function patternWords(pattern: string): string[] | undefined {
  const words: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  for (const character of pattern) {
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
      else current += character;
      continue;
    }
    if (character === '"' || character === "'") {
      quote = character;
      started = true;
      continue;
    }
    if (character === ' ' || character === '\t') {
      if (started) words.push(current);
      current = '';
      started = false;
      continue;
    }
    current += character;
    started = true;
  }
  if (quote !== undefined) return undefined;
  if (started) words.push(current);
  return words;
}

const toolEntry = /^([A-Za-z_][A-Za-z0-9_]*)(?:\((.*)\))?$/s;

/**
 * Parses an `allowed-tools` value in either dialect: `Read Bash(git:*) Bash(python scripts/run.py:*)`
 * or `/dev/fs /dev/shell` (virtual devices). Unknown and malformed entries, and entries too broad to
 * pre-approve (`*`, `Bash`, `Bash(*)`, `/dev/shell`), are reported; the rest become grants.
 */
export function parseAllowedTools(value: string): ParsedAllowedTools {
  const grants: ToolGrant[] = [];
  const problems: GrantProblem[] = [];
  for (const { text, offset } of splitEntries(value)) {
    if (text === '*') {
      problems.push({
        kind: 'too-broad',
        raw: text,
        offset,
        message: "'*' would grant every tool; it pre-approves nothing",
      });
      continue;
    }
    if (text.startsWith('/')) {
      const tools = DEVICES[text];
      if (tools === undefined) {
        problems.push({
          kind: 'unknown',
          raw: text,
          offset,
          message: `Unknown device ${quote(text)} (known: ${Object.keys(DEVICES).join(', ')})`,
        });
        continue;
      }
      const broad = tools.some((tool) => COMMAND_TOOLS.has(tool));
      grants.push({ raw: text, offset, syntax: 'device', tools, preApprovable: !broad });
      if (broad)
        problems.push({
          kind: 'too-broad',
          raw: text,
          offset,
          message: `${quote(text)} stands for every shell command; it narrows but pre-approves nothing`,
        });
      continue;
    }
    const match = toolEntry.exec(text);
    if (match === null) {
      problems.push({
        kind: 'malformed',
        raw: text,
        offset,
        message: `Entry ${quote(text)} is neither Tool, Tool(pattern) nor a /dev/ device`,
      });
      continue;
    }
    const name = match[1] as string;
    const pattern = match[2];
    const tool = canonicalTool(name);
    if (tool === undefined) {
      problems.push({ kind: 'unknown', raw: text, offset, message: `Unknown tool ${quote(name)}` });
      continue;
    }
    if (!COMMAND_TOOLS.has(tool)) {
      if (pattern !== undefined && pattern.trim() === '') {
        problems.push({
          kind: 'malformed',
          raw: text,
          offset,
          message: `Entry ${quote(text)} has an empty pattern`,
        });
        continue;
      }
      grants.push({
        raw: text,
        offset,
        syntax: 'tool',
        tools: [tool],
        ...(pattern === undefined || pattern === '*' || pattern === '**'
          ? {}
          : { path: pattern.trim() }),
        preApprovable: true,
      });
      continue;
    }
    // A command tool: the pattern says which commands.
    const trimmed = pattern?.trim() ?? '';
    if (
      pattern === undefined ||
      trimmed === '*' ||
      trimmed === ':*' ||
      trimmed === '' ||
      trimmed === '*:*'
    ) {
      grants.push({ raw: text, offset, syntax: 'tool', tools: [tool], preApprovable: false });
      problems.push({
        kind: 'too-broad',
        raw: text,
        offset,
        message: `${quote(text)} allows every shell command; it narrows but pre-approves nothing`,
      });
      continue;
    }
    const prefix = trimmed.endsWith(':*') || trimmed.endsWith(' *');
    const body = prefix ? trimmed.slice(0, -2).trim() : trimmed;
    const argv = patternWords(body);
    if (
      argv === undefined ||
      argv.length === 0 ||
      argv.some((word) => /[*?[\]$`|;&<>(){}]/.test(word))
    ) {
      problems.push({
        kind: 'malformed',
        raw: text,
        offset,
        message: `Command pattern ${quote(trimmed)} must be plain words, optionally ending in :* (e.g. Bash(git status:*))`,
      });
      continue;
    }
    grants.push({
      raw: text,
      offset,
      syntax: 'tool',
      tools: [tool],
      command: { argv, prefix },
      preApprovable: true,
    });
  }
  return { grants, problems };
}
