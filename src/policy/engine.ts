import { parseAllowedTools, type ToolGrant } from './allowed-tools.js';
import { argvMatches, parseCommand } from './command.js';
import {
  type CanonicalTool,
  COMMAND_TOOLS,
  canonicalTool,
  RUNTIME_TOOLS_ALLOWED_BY_DEFAULT,
} from './tools.js';

/** The three outcomes. Deny beats ask beats allow. */
export type Decision = 'allow' | 'ask' | 'deny';

/** A call a model (or the harness) wants to make. */
export interface ToolRequest {
  /** The tool, by the host's name or the canonical one. */
  readonly tool: string;
  /** A shell command, for command tools. */
  readonly command?: string;
  /** A file path, for file tools (relative to the workspace). */
  readonly path?: string;
  /** For `run_skill_script`: the skill, the script's relative path, content hash, interpreter and arguments. */
  readonly script?: {
    readonly skill: string;
    /** The id of the skill's source (approvals are bound to it). */
    readonly source: string;
    readonly path: string;
    readonly contentHash: string;
    /** The interpreter's short name: sh, bash, python3 or node. */
    readonly interpreter?: string;
    readonly args?: readonly string[];
  };
}

/** What an active skill asks for, and who it is. */
export interface ActiveSkillGrants {
  readonly address: string;
  readonly source: string;
  readonly trusted: boolean;
  /** SHA-256 of SKILL.md when the skill was activated. */
  readonly contentHash: string | undefined;
  /** The parsed `allowed-tools` (empty when the skill has none). */
  readonly grants: readonly ToolGrant[];
}

/** The host's side of the policy. */
export interface PolicyConfig {
  /** The host's tools: the ceiling. A skill never gets a tool outside it. */
  readonly tools: readonly string[];
  /**
   * Narrow the tools while skills with an `allowed-tools` list are active, to the tools in
   * those lists (a whitelist, as the device form means it), besides using them to pre-approve.
   */
  readonly narrow?: boolean;
  /** The host's decision per tool when no skill grant applies (default: `ask`). */
  readonly defaults?: Readonly<Partial<Record<string, Decision>>>;
  readonly defaultDecision?: Decision;
  /** Entries in `allowed-tools` syntax that are always denied, e.g. `Bash(rm:*)`, `WebFetch`. */
  readonly deny?: readonly string[];
  /** Record what would be decided, but enforce nothing (except tools the host does not have). */
  readonly shadow?: boolean;
}

export type DecisionRule =
  | 'ceiling'
  | 'deny-rule'
  | 'narrowed'
  | 'host-default'
  | 'approval'
  | 'skill-grant'
  | 'untrusted-skill'
  | 'uncovered-command';

export interface PolicyDecision {
  /** What the policy decided. */
  readonly decision: Decision;
  /** What is enforced: the decision, or in shadow mode `allow` (but never a tool the host lacks). */
  readonly effect: Decision;
  readonly rule: DecisionRule;
  readonly reason: string;
  readonly tool: string;
  /** The skill whose grant or narrowing decided it, if any. */
  readonly skill?: string;
  /** The `allowed-tools` entry that decided it, if any. */
  readonly grant?: string;
}

export interface PolicyContext {
  readonly config: PolicyConfig;
  /** Skills whose grants are in force now (active, within their turn). */
  readonly active: readonly ActiveSkillGrants[];
  /** Approvals the user gave ("always"), looked up by key. */
  readonly approved?: (key: string) => boolean;
}

/** The key an approval is stored under: bound to source, skill, content hash and subject. */
export function approvalKey(parts: {
  readonly source: string;
  readonly skill: string;
  readonly contentHash: string;
  readonly subject: string;
}): string {
  return JSON.stringify([parts.source, parts.skill, parts.contentHash, parts.subject]);
}

/** A simple glob: `**` any path, `*` and `?` within one segment. */
function globMatches(pattern: string, path: string): boolean {
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

interface Coverage {
  readonly covered: boolean;
  /** Why a grant for the tool did not cover the call, if one nearly did. */
  readonly near?: string;
}

/** Interpreter names a command grant may use for a script. */
const interpreterAliases: Readonly<Record<string, readonly string[]>> = {
  sh: ['sh', 'bash'],
  bash: ['bash', 'sh'],
  python3: ['python3', 'python'],
  node: ['node'],
};

/**
 * A script run is covered by a `run_skill_script` (or `/dev/scripts`) grant whose path pattern
 * fits, or by a command grant such as `Bash(python scripts/run.py:*)` that would cover running
 * the script from the skill directory with these arguments.
 */
function coversScript(grant: ToolGrant, script: NonNullable<ToolRequest['script']>): Coverage {
  if (grant.tools.includes('run_skill_script')) {
    if (grant.path !== undefined && !globMatches(grant.path, script.path)) {
      return { covered: false, near: `the script is outside '${grant.raw}'` };
    }
    return { covered: true };
  }
  if (!grant.tools.includes('bash') || grant.command === undefined || !grant.preApprovable)
    return { covered: false };
  const args = script.args ?? [];
  const candidates: string[][] = [
    [script.path, ...args],
    [`./${script.path}`, ...args],
  ];
  for (const alias of interpreterAliases[script.interpreter ?? ''] ?? []) {
    candidates.push([alias, script.path, ...args], [alias, `./${script.path}`, ...args]);
  }
  const pattern = grant.command;
  return candidates.some((argv) => argvMatches(argv, pattern))
    ? { covered: true }
    : { covered: false };
}

/** Whether one grant covers the request. */
function covers(grant: ToolGrant, tool: CanonicalTool, request: ToolRequest): Coverage {
  if (tool === 'run_skill_script' && request.script !== undefined)
    return coversScript(grant, request.script);
  if (!grant.tools.includes(tool)) return { covered: false };

  if (!grant.preApprovable)
    return { covered: false, near: `'${grant.raw}' is too broad to pre-approve` };
  if (COMMAND_TOOLS.has(tool)) {
    if (grant.command === undefined) return { covered: false };
    const parsed = parseCommand(request.command ?? '');
    if (parsed.segments.length === 0) return { covered: false, near: 'the command is empty' };
    if (parsed.unsafe.length > 0) {
      return {
        covered: false,
        near: `the command has ${parsed.unsafe.join(' and ')}, which '${grant.raw}' does not cover`,
      };
    }
    const pattern = grant.command;
    const uncovered = parsed.segments.find((argv) => !argvMatches(argv, pattern));
    if (uncovered !== undefined) {
      return { covered: false, near: `'${uncovered.join(' ')}' is not covered by '${grant.raw}'` };
    }
    return { covered: true };
  }
  if (grant.path !== undefined) {
    if (request.path === undefined || !globMatches(grant.path, request.path)) {
      return { covered: false, near: `the path is outside '${grant.raw}'` };
    }
  }
  return { covered: true };
}

/** Whether the request is covered by every segment of some grant, for deny rules. */
function denyMatch(
  rules: readonly ToolGrant[],
  tool: CanonicalTool | string,
  request: ToolRequest,
): ToolGrant | undefined {
  for (const rule of rules) {
    if (!rule.tools.includes(tool as CanonicalTool)) continue;
    if (COMMAND_TOOLS.has(tool as CanonicalTool) && rule.command !== undefined) {
      const parsed = parseCommand(request.command ?? '');
      const pattern = rule.command;
      // A deny rule matches when any segment matches it: chaining cannot hide a denied command.
      if (parsed.segments.some((argv) => argvMatches(argv, pattern))) return rule;
      continue;
    }
    if (
      rule.path !== undefined &&
      (request.path === undefined || !globMatches(rule.path, request.path))
    )
      continue;
    return rule;
  }
  return undefined;
}

const parsedDenyRules = new WeakMap<readonly string[], readonly ToolGrant[]>();

/** The host's deny rules, parsed once per list (a host decides many calls with one policy). */
function denyRulesOf(deny: readonly string[] | undefined): readonly ToolGrant[] {
  if (deny === undefined || deny.length === 0) return [];
  let rules = parsedDenyRules.get(deny);
  if (rules === undefined) {
    rules = parseAllowedTools(deny.join(' ')).grants;
    parsedDenyRules.set(deny, rules);
  }
  return rules;
}

/**
 * Decides a request.
 The host's tools are the ceiling; the host's deny rules and defaults come
 * next; a trusted active skill's `allowed-tools` may pre-approve what the host would ask about,
 * never what it denies; an untrusted skill never skips confirmation. Pure: no I/O, no clock.
 */
export function evaluate(request: ToolRequest, context: PolicyContext): PolicyDecision {
  const { config } = context;
  const tool = canonicalTool(request.tool) ?? request.tool;
  const ceiling = new Set(config.tools.map((name) => canonicalTool(name) ?? name));
  const decide = (
    decision: Decision,
    rule: DecisionRule,
    reason: string,
    extra: { skill?: string; grant?: string } = {},
  ): PolicyDecision => {
    const effect = config.shadow === true && rule !== 'ceiling' ? 'allow' : decision;
    return { decision, effect, rule, reason, tool, ...extra };
  };
  if (!ceiling.has(tool)) {
    return decide(
      'deny',
      'ceiling',
      `The host does not have the tool '${request.tool}'; no skill can add it`,
    );
  }
  const denyRules = denyRulesOf(config.deny);

  const denied = denyMatch(denyRules, tool, request);
  if (denied !== undefined)
    return decide('deny', 'deny-rule', `The host denies '${denied.raw}'`, { grant: denied.raw });
  // Narrowing leaves the skill mechanics themselves alone (activating, reading a skill's files,
  // searching); a script run counts as listed by a shell grant too.
  if (config.narrow === true && !RUNTIME_TOOLS_ALLOWED_BY_DEFAULT.includes(tool as CanonicalTool)) {
    const listing = context.active.filter((skill) => skill.grants.length > 0);
    const lists = (grant: ToolGrant) =>
      grant.tools.includes(tool as CanonicalTool) ||
      (tool === 'run_skill_script' && grant.tools.includes('bash'));
    if (listing.length > 0 && !listing.some((skill) => skill.grants.some(lists))) {
      return decide(
        'deny',
        'narrowed',
        `While ${listing.map((skill) => skill.address).join(', ')} ${listing.length === 1 ? 'is' : 'are'} active, only the tools ${listing.length === 1 ? 'it lists' : 'they list'} may be used`,
        {
          skill: listing[0]?.address as string,
        },
      );
    }
  }
  const baseline =
    config.defaults?.[tool] ?? config.defaults?.[request.tool] ?? config.defaultDecision ?? 'ask';
  if (baseline === 'deny')
    return decide('deny', 'host-default', `The host denies '${request.tool}' by default`);
  if (baseline === 'allow')
    return decide('allow', 'host-default', `The host allows '${request.tool}' by default`);
  if (request.script !== undefined && context.approved !== undefined) {
    const key = approvalKey({
      source: request.script.source,

      skill: request.script.skill,
      contentHash: request.script.contentHash,
      subject: `script:${request.script.path}`,
    });
    if (context.approved(key)) {
      return decide(
        'allow',
        'approval',
        `Approved earlier for this exact script content (${request.script.contentHash.slice(0, 12)})`,
        {
          skill: request.script.skill,
        },
      );
    }
  }
  let near: { reason: string; skill: string; grant: string } | undefined;
  let untrusted: string | undefined;
  for (const skill of context.active) {
    for (const grant of skill.grants) {
      const coverage = covers(grant, tool as CanonicalTool, request);
      if (coverage.covered) {
        if (!skill.trusted) {
          untrusted ??= skill.address;
          continue;
        }
        return decide('allow', 'skill-grant', `Pre-approved by ${skill.address}: '${grant.raw}'`, {
          skill: skill.address,
          grant: grant.raw,
        });
      }
      if (coverage.near !== undefined)
        near ??= { reason: coverage.near, skill: skill.address, grant: grant.raw };
    }
  }
  if (untrusted !== undefined) {
    return decide(
      'ask',
      'untrusted-skill',
      `${untrusted} asks for this, but it is untrusted: a declaration is a request, not a grant`,
      {
        skill: untrusted,
      },
    );
  }
  if (near !== undefined)
    return decide('ask', 'uncovered-command', `Confirmation needed: ${near.reason}`, {
      skill: near.skill,
      grant: near.grant,
    });
  return decide('ask', 'host-default', `Confirmation needed for '${request.tool}'`);
}
