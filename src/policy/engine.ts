import { quote } from '../quote.js';
import { parseAllowedTools, type ToolGrant } from './allowed-tools.js';
import { analyseCommand, type CommandAnalysis } from './command-analysis.js';
import { commandRulings, scriptCommandRule, toolDenial } from './command-rules.js';
import { type Coverage, coversRequest, coversScript } from './coverage.js';
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

/**
 * Which rule decided. `runs-other-programs`: a grant covers the command's words, but a row of the
 * option table applies (`git -c`, `find -exec`); `script-as-command`: a host rule about commands
 * (a deny rule, no bash tool) keeps a script run from being pre-approved; `unreadable-command`:
 * the host has deny rules and the command may run a program that cannot be named from its text.
 */
export type DecisionRule =
  | 'ceiling'
  | 'deny-rule'
  | 'narrowed'
  | 'host-default'
  | 'approval'
  | 'skill-grant'
  | 'untrusted-skill'
  | 'uncovered-command'
  | 'runs-other-programs'
  | 'script-as-command'
  | 'unreadable-command';

/** A decision as data: what is decided, what is enforced, by which rule, and why. */
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

/** What a decision depends on besides the request: the host, the active skills, approvals. */
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

/** A grant's coverage of a request: script runs, commands, or other tools. */
function covers(
  grant: ToolGrant,
  tool: CanonicalTool,
  request: ToolRequest,
  analysis: CommandAnalysis | undefined,
): Coverage {
  if (tool === 'run_skill_script' && request.script !== undefined)
    return coversScript(grant, request.script);
  return coversRequest(grant, tool, request, analysis);
}

/**
 * Decides a request. The host's tools are the ceiling; the host's deny rules and defaults come
 * next (a deny rule about commands binds every command that would run, at any depth, and binds
 * script runs, which are commands too); a trusted active skill's `allowed-tools` may pre-approve
 * what the host would ask about, never what it denies, and a command grant never covers an
 * option that runs another program; an untrusted skill never skips confirmation. Pure: no I/O,
 * no clock.
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
      `The host does not have the tool ${quote(request.tool)}; no skill can add it`,
    );
  }
  const denyRules = denyRulesOf(config.deny);
  const analysis = COMMAND_TOOLS.has(tool as CanonicalTool)
    ? analyseCommand(request.command ?? '')
    : undefined;
  const rulings = analysis === undefined ? {} : commandRulings(denyRules, analysis);
  const denied =
    rulings.denied ??
    (analysis === undefined
      ? toolDenial(denyRules, tool, request.script?.path ?? request.path)
      : undefined);
  if (denied !== undefined)
    return decide('deny', 'deny-rule', denied.reason, { grant: denied.rule.raw });
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
  const defaultOf = (name: string) => config.defaults?.[name] ?? config.defaultDecision ?? 'ask';
  const baseline = config.defaults?.[tool] ?? config.defaults?.[request.tool] ?? defaultOf(tool);
  if (baseline === 'deny')
    return decide('deny', 'host-default', `The host denies ${quote(request.tool)} by default`);
  const script = tool === 'run_skill_script' ? request.script : undefined;
  const approved =
    script !== undefined &&
    context.approved?.(
      approvalKey({
        source: script.source,
        skill: script.skill,
        contentHash: script.contentHash,
        subject: `script:${script.path}`,
      }),
    ) === true;
  const approval = () =>
    decide(
      'allow',
      'approval',
      `Approved earlier for this exact script content (${script?.contentHash.slice(0, 12)})`,
      { skill: script?.skill as string },
    );
  const bound =
    script === undefined
      ? undefined
      : scriptCommandRule(script, {
          hasCommandTool: ceiling.has('bash'),
          commandsDeniedByDefault: defaultOf('bash') === 'deny',
          rules: denyRules,
        });
  if (bound !== undefined) {
    // The user's own approval of this exact content still stands; a skill's list does not.
    if (approved) return approval();
    return decide('ask', 'script-as-command', `Confirmation needed: ${bound}`, {
      skill: script?.skill as string,
    });
  }
  // A deny rule that cannot be ruled out turns what would be allowed into a question.
  const doubt = rulings.doubt;
  const unless = (allowed: PolicyDecision): PolicyDecision =>
    doubt === undefined
      ? allowed
      : decide('ask', 'unreadable-command', `Confirmation needed: ${doubt}`, {
          ...(allowed.skill === undefined ? {} : { skill: allowed.skill }),
          ...(allowed.grant === undefined ? {} : { grant: allowed.grant }),
        });
  if (baseline === 'allow')
    return unless(
      decide('allow', 'host-default', `The host allows ${quote(request.tool)} by default`),
    );
  if (approved) return approval();
  let near: { reason: string; skill: string; grant: string; table: boolean } | undefined;
  let untrusted: string | undefined;
  for (const skill of context.active) {
    for (const grant of skill.grants) {
      const coverage = covers(grant, tool as CanonicalTool, request, analysis);
      if (coverage.covered) {
        if (!skill.trusted) {
          untrusted ??= skill.address;
          continue;
        }
        return unless(
          decide('allow', 'skill-grant', `Pre-approved by ${skill.address}: ${quote(grant.raw)}`, {
            skill: skill.address,
            grant: grant.raw,
          }),
        );
      }
      // The option table's reason is the one to give, whichever grant came first.
      if (coverage.near !== undefined && (near === undefined || (coverage.table && !near.table)))
        near = {
          reason: coverage.near,
          skill: skill.address,
          grant: grant.raw,
          table: coverage.table === true,
        };
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
    return decide(
      'ask',
      near.table ? 'runs-other-programs' : 'uncovered-command',
      `Confirmation needed: ${near.reason}`,
      { skill: near.skill, grant: near.grant },
    );
  return decide('ask', 'host-default', `Confirmation needed for ${quote(request.tool)}`);
}
