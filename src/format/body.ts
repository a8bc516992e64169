import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import { quote } from '../quote.js';
import { cleanText, codePointName } from './characters.js';
import { RECOMMENDED_MAX_BODY_LINES, RECOMMENDED_MAX_BODY_TOKENS } from './limits.js';
import type { ParsedSkill } from './parse.js';
import { estimateTokens } from './tokens.js';
import type { ValidationMode } from './validate-fields.js';

export { estimateTokens } from './tokens.js';

/**
 * Number of lines of text, not counting trailing empty lines; counting stops once it passes
 * `limit`, since callers only need to know that the limit was passed.
 */
export function countLines(text: string, limit = Number.POSITIVE_INFINITY): number {
  let end = text.length;
  while (end > 0) {
    const code = text.charCodeAt(end - 1);
    if (code !== 10 && code !== 13 && code !== 32 && code !== 9) break;
    end -= 1;
  }
  if (end === 0) return 0;
  let lines = 1;
  let index = text.indexOf('\n');
  while (index !== -1 && index < end && lines <= limit) {
    lines += 1;
    index = text.indexOf('\n', index + 1);
  }
  return lines;
}

/** Bounds on link checking, so that a body stuffed with links stays cheap to check. */
const MAX_LINKS_CHECKED = 1000;
const MAX_LINK_DIAGNOSTICS = 50;

export interface BodyLink {
  /** The link target as written. */
  readonly target: string;
  /** The target as a path relative to the skill root, or undefined when it leaves the root. */
  readonly path: string | undefined;
  /** UTF-16 offset of the target in the body. */
  readonly offset: number;
}

/**
 * One pass over the body finds fence lines (to skip code blocks), reference definitions
 * (`[id]: target`) and inline links or images (`[text](target)`), each within one line.
 */
const linkScanner =
  /^ {0,3}(`{3,}|~{3,})|^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:[ \t]*(<[^>\n]*>|\S+)|!?\[(?:[^\]\\\n]|\\.)*\]\([ \t]*(<[^>\n]*>|[^\s)]+)/my;
/** Whether a multiline `^` matches at `index`: the start, or after a line terminator. */
function atLineStart(text: string, index: number): boolean {
  if (index === 0) return true;
  const code = text.charCodeAt(index - 1);
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}

/** Where a line holding `index` after at most three spaces starts, or -1 when it does not. */
function indentedLineStart(text: string, index: number): number {
  let start = index;
  while (start > 0 && index - start < 3 && text.charCodeAt(start - 1) === 32) start -= 1;
  return atLineStart(text, start) ? start : -1;
}

/**
 * The positions at which `linkScanner` can match, in order from `from`: a `[` (or the `!`
 * before it), and a line start followed by at most three spaces and a `[` or a fence. Tried
 * there with the sticky expression, they give the matches a scan of every position gives.
 */
function candidates(text: string): (from: number) => number {
  let bracket = -2;
  let bracketFrom = -1;
  let fence = -2;
  let fenceFrom = -1;
  const nextBracket = (from: number): number => {
    if (bracket !== -2 && from >= bracketFrom && (bracket === -1 || from <= bracket))
      return bracket;
    bracketFrom = from;
    bracket = text.indexOf('[', from);
    return bracket;
  };
  const nextFence = (from: number): number => {
    if (fence !== -2 && from >= fenceFrom && (fence === -1 || from <= fence)) return fence;
    fenceFrom = from;
    for (let at = from; ; ) {
      const ticks = text.indexOf('```', at);
      const tildes = text.indexOf('~~~', at);
      const found = ticks === -1 ? tildes : tildes === -1 ? ticks : Math.min(ticks, tildes);
      if (found === -1) {
        fence = -1;
        return fence;
      }
      const start = indentedLineStart(text, found);
      if (start !== -1 && start >= from) {
        fence = start;
        return fence;
      }
      at = found + 1;
    }
  };
  return (from) => {
    const open = nextBracket(from);
    let best = open;
    if (open !== -1) {
      const start = indentedLineStart(text, open);
      if (start !== -1 && start >= from) best = start;
      else if (open > from && text.charCodeAt(open - 1) === 33) best = open - 1;
    }
    const fenceStart = nextFence(from);
    if (fenceStart !== -1 && (best === -1 || fenceStart < best)) best = fenceStart;
    return best;
  };
}

const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** A plain relative path that needs no resolving: no dot segments, no empty segments, no escapes. */
const simpleRelativePath =
  /^(?!\.\.?(?:\/|$))[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9_.-]+)*$/;

function decodeTarget(target: string): string {
  if (!target.includes('%')) return target;
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}

/**
 * Resolves a relative link target against the skill root: the path, undefined when it escapes
 * the root, or null when it is not a file link (a URL, an anchor, an absolute path).
 */
export function resolveRelativeTarget(target: string): string | undefined | null {
  if (simpleRelativePath.test(target)) return target;
  let value = target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
  const cut = value.search(/[#?]/);
  if (cut !== -1) value = value.slice(0, cut);
  if (value === '' || scheme.test(value) || value.startsWith('/') || value.startsWith('~')) {
    return null;
  }
  // A plain path before a fragment (`rules.md#naming`) is its own resolution.
  if (cut !== -1 && simpleRelativePath.test(value)) return value;
  const segments: string[] = [];
  for (const segment of decodeTarget(value).split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return segments.length === 0 ? null : segments.join('/');
}

/** Start and end offsets of the inline code spans of one line (relative to the line). */
function codeSpans(line: string): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  if (!line.includes('`')) return spans;
  const span = /(`+)[^`]*?\1/g;
  for (let match = span.exec(line); match !== null; match = span.exec(line)) {
    spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}

const noSpans: Array<readonly [number, number]> = [];

/** Relative links from the body into files (not URLs, not anchors), outside code. */
export function findBodyLinks(body: string): BodyLink[] {
  const links: BodyLink[] = [];
  if (!body.includes('](') && !body.includes(']:')) return links;
  let fenceMarker: string | undefined;
  // Code spans are found once per line that holds a link, however many links it holds.
  let spansLineStart = -1;
  let spans: Array<readonly [number, number]> = [];
  const next = candidates(body);
  for (let from = 0; ; ) {
    const at = next(from);
    if (at === -1) break;
    linkScanner.lastIndex = at;
    const match = linkScanner.exec(body);
    if (match === null) {
      from = at + 1;
      continue;
    }
    from = at + match[0].length;
    const fenceText = match[1];
    if (fenceText !== undefined) {
      if (fenceMarker === undefined) fenceMarker = fenceText.slice(0, 3);
      else if (fenceText.startsWith(fenceMarker)) fenceMarker = undefined;
      continue;
    }
    if (fenceMarker !== undefined) continue;
    const target = (match[2] ?? match[3]) as string;
    const offset = match.index + match[0].length - target.length;
    const lineStart = body.lastIndexOf('\n', offset - 1) + 1;
    if (lineStart !== spansLineStart) {
      const newline = body.indexOf('\n', offset);
      const lineEnd = newline === -1 ? body.length : newline;
      // A line without a backtick has no code span: no copy of it is made to look.
      const tick = body.indexOf('`', lineStart);
      spans = tick === -1 || tick >= lineEnd ? noSpans : codeSpans(body.slice(lineStart, lineEnd));
      spansLineStart = lineStart;
    }
    const column = offset - lineStart;
    if (spans.some(([start, end]) => column > start && column < end)) continue;
    const path = resolveRelativeTarget(target);
    if (path === null) continue;
    links.push({ target, path, offset });
  }
  return links;
}

export interface BodyCheckOptions {
  /**
   * `strict` (default): control characters in the body are an error. `lenient` (loading): a
   * warning, and loading removes them.
   */
  readonly mode?: ValidationMode;
  /**
   * Tells whether a path relative to the skill root names an existing file or directory;
   * undefined when unknown. Without it, links are not checked.
   */
  readonly fileExists?: (relativePath: string) => boolean | undefined;
  /**
   * The caller knows the file holds only printable ASCII, tabs and line breaks
   * (`isPlainText` of its bytes): the body's characters need no check.
   */
  readonly plainText?: boolean;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * Control characters (an error when strict) and invisible or bidirectional-control characters
 * (a warning) in the body, with their count and where the first one is. Loading removes both
 * (`cleanText`), so neither reaches a model or a terminal.
 */
function checkBodyCharacters(
  parsed: ParsedSkill,
  body: string,
  mode: ValidationMode,
  out: Diagnostic[],
): void {
  const { control, hidden } = cleanText(body);
  if (control.count > 0) {
    const at = parsed.bodyPosition(control.first);
    out.push(
      createDiagnostic(
        'BODY_CONTROL_CHARACTERS',
        mode === 'strict' ? 'error' : 'warning',
        `The body holds ${plural(control.count, 'control character')} (the first, ${codePointName(control.codePoint)}, at line ${at.line}, column ${at.column}); they can rewrite a terminal and are removed when the skill is loaded`,
        parsed.file,
        at.line,
        at.column,
      ),
    );
  }
  if (hidden.count > 0) {
    const at = parsed.bodyPosition(hidden.first);
    out.push(
      createDiagnostic(
        'BODY_HIDDEN_UNICODE',
        'warning',
        `The body holds ${plural(hidden.count, 'invisible or bidirectional-control character')} (the first, ${codePointName(hidden.codePoint)}, at line ${at.line}, column ${at.column}); they are removed before a model sees the body`,
        parsed.file,
        at.line,
        at.column,
      ),
    );
  }
}

/**
 * Checks on the body: control and hidden characters, then portability (length in lines and
 * tokens, empty body, broken links).
 */
export function checkBody(parsed: ParsedSkill, options: BodyCheckOptions = {}): Diagnostic[] {
  const body = parsed.body;
  const out: Diagnostic[] = [];
  if (body === undefined || parsed.frontmatter === undefined) return out;
  if (options.plainText !== true) checkBodyCharacters(parsed, body, options.mode ?? 'strict', out);
  const lines = countLines(body, RECOMMENDED_MAX_BODY_LINES);
  if (lines === 0) {
    out.push(
      createDiagnostic(
        'BODY_EMPTY',
        'warning',
        'The body is empty: nothing tells the agent what to do when the skill is active',
        parsed.file,
        parsed.bodyLine,
        1,
      ),
    );
    return out;
  }
  if (lines > RECOMMENDED_MAX_BODY_LINES) {
    out.push(
      createDiagnostic(
        'BODY_TOO_MANY_LINES',
        'warning',
        `The body has ${countLines(body)} lines; the specification recommends at most ${RECOMMENDED_MAX_BODY_LINES}`,
        parsed.file,
        parsed.bodyLine + RECOMMENDED_MAX_BODY_LINES,
        1,
      ),
    );
  }
  // The estimate never exceeds the length, so short bodies need no count.
  const tokens = body.length > RECOMMENDED_MAX_BODY_TOKENS ? estimateTokens(body) : 0;
  if (tokens > RECOMMENDED_MAX_BODY_TOKENS) {
    out.push(
      createDiagnostic(
        'BODY_TOO_MANY_TOKENS',
        'warning',
        `The body is about ${tokens} tokens; the specification recommends at most ${RECOMMENDED_MAX_BODY_TOKENS}`,
        parsed.file,
        parsed.bodyLine,
        1,
      ),
    );
  }
  const exists = options.fileExists;
  if (exists !== undefined) {
    let reported = 0;
    let unreported = 0;
    const links = findBodyLinks(body);
    for (let index = 0; index < links.length && index < MAX_LINKS_CHECKED; index += 1) {
      const link = links[index] as BodyLink;
      if (link.path !== undefined && exists(link.path) !== false) continue;
      if (reported >= MAX_LINK_DIAGNOSTICS) {
        unreported += 1;
        continue;
      }
      reported += 1;
      const position = parsed.bodyPosition(link.offset);
      if (link.path === undefined) {
        out.push(
          createDiagnostic(
            'LINK_OUTSIDE_SKILL',
            'warning',
            `Link ${quote(link.target)} points outside the skill directory`,
            parsed.file,
            position.line,
            position.column,
          ),
        );
      } else {
        out.push(
          createDiagnostic(
            'LINK_BROKEN',
            'warning',
            link.target === link.path
              ? `Link ${quote(link.target)} points to a file that does not exist in the skill`
              : `Link ${quote(link.target)} points to ${quote(link.path)}, which does not exist in the skill`,
            parsed.file,
            position.line,
            position.column,
          ),
        );
      }
    }
    if (unreported > 0 || links.length > MAX_LINKS_CHECKED) {
      out.push(
        createDiagnostic(
          'LINK_BROKEN',
          'warning',
          `${unreported} more broken links not listed${links.length > MAX_LINKS_CHECKED ? `; only the first ${MAX_LINKS_CHECKED} of ${links.length} links were checked` : ''}`,
          parsed.file,
          parsed.bodyLine,
          1,
        ),
      );
    }
  }
  return out;
}
