import { quote } from '../quote.js';
import type { ToolGrant } from './allowed-tools.js';
import { argvMatches } from './command.js';
import type { CommandAnalysis } from './command-analysis.js';
import { type CanonicalTool, COMMAND_TOOLS } from './tools.js';

/** A script run as the policy sees it. */
export interface ScriptCall {
  readonly path: string;
  /** The interpreter's short name: sh, bash, python3 or node. */
  readonly interpreter?: string;
  readonly args?: readonly string[];
}

/** Whether a grant covers a call, and if not, why it nearly did. */
export interface Coverage {
  readonly covered: boolean;
  /** Why a grant for the tool did not cover the call, if one nearly did. */
  readonly near?: string;
  /** The option table's row kept it from covering the call (`runs-other-programs`). */
  readonly table?: boolean;
}

/** A simple glob: `**` any path, `*` and `?` within one segment. */
export function globMatches(pattern: string, path: string): boolean {
  let source = '^';
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index] as string;
    if (character === '*' && pattern[index + 1] === '*') {
      source += '.*';
      index += 1;
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else source += character.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`${source}$`).test(path);
}

/** Interpreter names a command may use for a script. */
const interpreterAliases: Readonly<Record<string, readonly string[]>> = {
  sh: ['sh', 'bash'],
  bash: ['bash', 'sh'],
  python3: ['python3', 'python'],
  node: ['node', 'nodejs'],
};

/**
 * The command lines a script run stands for: `INTERPRETER scripts/PATH ARGS...` (under each name
 * of its interpreter), `./scripts/PATH ARGS...` and `scripts/PATH ARGS...`. Grants and host rules
 * about commands are matched against these.
 */
export function scriptCommandLines(script: ScriptCall): string[][] {
  const args = script.args ?? [];
  const lines: string[][] = [
    [script.path, ...args],
    [`./${script.path}`, ...args],
  ];
  for (const alias of interpreterAliases[script.interpreter ?? ''] ?? []) {
    lines.push([alias, script.path, ...args], [alias, `./${script.path}`, ...args]);
  }
  return lines;
}

/**
 * A script run is covered by a `run_skill_script` (or `/dev/scripts`) grant whose path pattern
 * fits, or by a command grant such as `Bash(python scripts/run.py:*)` that would cover running
 * the script from the skill directory with these arguments.
 */
export function coversScript(grant: ToolGrant, script: ScriptCall): Coverage {
  if (grant.tools.includes('run_skill_script')) {
    if (grant.path !== undefined && !globMatches(grant.path, script.path)) {
      return { covered: false, near: `the script is outside ${quote(grant.raw)}` };
    }
    return { covered: true };
  }
  if (!grant.tools.includes('bash') || grant.command === undefined || !grant.preApprovable)
    return { covered: false };
  const pattern = grant.command;
  return scriptCommandLines(script).some((argv) => argvMatches(argv, pattern))
    ? { covered: true }
    : { covered: false };
}

/**
 * A command grant covers a command line when every command of it matches the grant's words and
 * the line is nothing more than commands (no substitution, redirection, subshell...), and no row
 * of the option table applies beyond the grant's own words: `Bash(git:*)` covers git doing its
 * own work, not `git -c core.sshCommand=...` (an exact grant names every word, so it covers them).
 */
export function coversCommand(grant: ToolGrant, analysis: CommandAnalysis): Coverage {
  const pattern = grant.command;
  if (pattern === undefined) return { covered: false };
  if (analysis.segments.length === 0) return { covered: false, near: 'the command is empty' };
  if (analysis.problems.length > 0) {
    return {
      covered: false,
      near: `the command has ${analysis.problems.join(' and ')}, which ${quote(grant.raw)} does not cover`,
    };
  }
  for (const segment of analysis.segments) {
    const argv = segment.words.map((word) => word.text);
    if (!argvMatches(argv, pattern))
      return {
        covered: false,
        near: `${quote(argv.join(' '))} is not covered by ${quote(grant.raw)}`,
      };
  }
  if (!pattern.prefix) return { covered: true };
  for (const segment of analysis.segments) {
    // The first row beyond the grant's words, in the order of the command line.
    const beyond = segment.reading.hits
      .filter((hit) => hit.index >= pattern.argv.length)
      .sort((a, b) => a.index - b.index)[0];
    if (beyond !== undefined) {
      return {
        covered: false,
        table: true,
        near: `${beyond.reason}; ${quote(grant.raw)} covers the program's own work, not that`,
      };
    }
  }
  return { covered: true };
}

/** Whether one grant covers a request of a tool that is not a script run. */
export function coversRequest(
  grant: ToolGrant,
  tool: CanonicalTool,
  request: { readonly path?: string },
  analysis: CommandAnalysis | undefined,
): Coverage {
  if (!grant.tools.includes(tool)) return { covered: false };
  if (!grant.preApprovable)
    return { covered: false, near: `${quote(grant.raw)} is too broad to pre-approve` };
  if (COMMAND_TOOLS.has(tool)) {
    if (analysis === undefined) return { covered: false };
    return coversCommand(grant, analysis);
  }
  if (grant.path !== undefined) {
    if (request.path === undefined || !globMatches(grant.path, request.path)) {
      return { covered: false, near: `the path is outside ${quote(grant.raw)}` };
    }
  }
  return { covered: true };
}
