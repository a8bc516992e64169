import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import { RECOMMENDED_MAX_BODY_LINES, RECOMMENDED_MAX_BODY_TOKENS } from './limits.js';
import type { ParsedSkill } from './parse.js';

/**
 * A quick token estimate where exactness is not needed: about four ASCII characters per token,
 * and one token per non-ASCII character (CJK text is close to that; accented Latin is overcounted).
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) ascii += 1;
    else if (code < 0xdc00 || code > 0xdfff) other += 1;
  }
  return Math.ceil(ascii / 4) + other;
}

/** Number of lines of text, not counting trailing empty lines. */
export function countLines(text: string): number {
  let end = text.length;
  while (end > 0) {
    const code = text.charCodeAt(end - 1);
    if (code !== 10 && code !== 13 && code !== 32 && code !== 9) break;
    end -= 1;
  }
  if (end === 0) return 0;
  let lines = 1;
  let index = text.indexOf('\n');
  while (index !== -1 && index < end) {
    lines += 1;
    index = text.indexOf('\n', index + 1);
  }
  return lines;
}

export interface BodyLink {
  /** The link target as written. */
  readonly target: string;
  /** The target as a path relative to the skill root, or undefined when it leaves the root. */
  readonly path: string | undefined;
  /** UTF-16 offset of the target in the body. */
  readonly offset: number;
}

const fence = /^ {0,3}(`{3,}|~{3,})/;
const inlineLink = /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^\s)]+)/g;
const referenceDefinition = /^ {0,3}\[(?:[^\]\\]|\\.)+\]:\s*(<[^>\n]*>|\S+)/;
const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function decodeTarget(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}

/** Resolves a relative link target against the skill root; undefined when it escapes the root. */
export function resolveRelativeTarget(target: string): string | undefined | null {
  let value = target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
  const cut = value.search(/[#?]/);
  if (cut !== -1) value = value.slice(0, cut);
  if (value === '' || scheme.test(value) || value.startsWith('/') || value.startsWith('~')) {
    return null;
  }
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

function stripInlineCode(line: string): string {
  if (!line.includes('`')) return line;
  return line.replace(/(`+)[^`]*?\1/g, (match) => ' '.repeat(match.length));
}

/** Relative links from the body into files (not URLs, not anchors), outside code blocks. */
export function findBodyLinks(body: string): BodyLink[] {
  const links: BodyLink[] = [];
  if (!body.includes('](') && !body.includes(']:')) return links;
  let inFence: string | undefined;
  let lineStart = 0;
  while (lineStart <= body.length) {
    const newline = body.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? body.length : newline;
    const line = body.slice(lineStart, lineEnd);
    const fenceMatch = fence.exec(line);
    if (fenceMatch !== null) {
      const marker = fenceMatch[1] as string;
      if (inFence === undefined) inFence = marker[0]?.repeat(3);
      else if (marker.startsWith(inFence)) inFence = undefined;
    } else if (inFence === undefined) {
      const text = stripInlineCode(line);
      const definition = referenceDefinition.exec(text);
      const candidates: Array<{ target: string; index: number }> = [];
      if (definition !== null) {
        const target = definition[1] as string;
        candidates.push({ target, index: definition.index + definition[0].length - target.length });
      }
      inlineLink.lastIndex = 0;
      for (let match = inlineLink.exec(text); match !== null; match = inlineLink.exec(text)) {
        const target = match[1] as string;
        candidates.push({ target, index: match.index + match[0].length - target.length });
      }
      for (const candidate of candidates) {
        const path = resolveRelativeTarget(candidate.target);
        if (path === null) continue;
        links.push({ target: candidate.target, path, offset: lineStart + candidate.index });
      }
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  return links;
}

export interface BodyCheckOptions {
  /**
   * Tells whether a path relative to the skill root names an existing file or directory;
   * undefined when unknown. Without it, links are not checked.
   */
  readonly fileExists?: (relativePath: string) => boolean | undefined;
}

/** Portability checks on the body: length in lines and tokens, empty body, broken links. */
export function checkBody(parsed: ParsedSkill, options: BodyCheckOptions = {}): Diagnostic[] {
  const body = parsed.body;
  const out: Diagnostic[] = [];
  if (body === undefined || parsed.frontmatter === undefined) return out;
  const lines = countLines(body);
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
        `The body has ${lines} lines; the specification recommends at most ${RECOMMENDED_MAX_BODY_LINES}`,
        parsed.file,
        parsed.bodyLine + RECOMMENDED_MAX_BODY_LINES,
        1,
      ),
    );
  }
  const tokens = estimateTokens(body);
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
    for (const link of findBodyLinks(body)) {
      const position = parsed.bodyPosition(link.offset);
      if (link.path === undefined) {
        out.push(
          createDiagnostic(
            'LINK_OUTSIDE_SKILL',
            'warning',
            `Link '${link.target}' points outside the skill directory`,
            parsed.file,
            position.line,
            position.column,
          ),
        );
      } else if (exists(link.path) === false) {
        out.push(
          createDiagnostic(
            'LINK_BROKEN',
            'warning',
            link.target === link.path
              ? `Link '${link.target}' points to a file that does not exist in the skill`
              : `Link '${link.target}' points to '${link.path}', which does not exist in the skill`,
            parsed.file,
            position.line,
            position.column,
          ),
        );
      }
    }
  }
  return out;
}
