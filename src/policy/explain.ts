import { quote } from '../quote.js';
import { parseAllowedTools, type ToolGrant } from './allowed-tools.js';
import { argvMatches } from './command.js';
import { coversScript, globMatches } from './coverage.js';
import {
  type ActiveSkillGrants,
  type Decision,
  type DecisionRule,
  evaluate,
  type PolicyConfig,
  type ToolRequest,
} from './engine.js';
import { tableRowsFor } from './programs/describe.js';
import {
  type CanonicalTool,
  COMMAND_TOOLS,
  canonicalTool,
  RUNTIME_TOOLS_ALLOWED_BY_DEFAULT,
} from './tools.js';

/** An entry's verdict (README: skillhost policy explain). */
export type GrantStatus =
  | 'granted'
  | 'limited'
  | 'overruled'
  | 'narrows-only'
  | 'untrusted'
  | 'unavailable'
  | 'denied'
  | 'invalid';

/** A call and what the policy does with it under the host's options. */
export interface ExplainedCall {
  /** The call, as a user would write it: `git status`, `scripts/report.sh`, `read references/a.md`. */
  readonly call: string;
  /** What the policy decides. */
  readonly decision: Decision;
  /** What happens: the decision, or in shadow mode `allow` (never for a tool the host lacks). */
  readonly effect: Decision;
  readonly rule: DecisionRule;
  readonly reason: string;
}

/** One entry of a skill's `allowed-tools`, judged against a host. */
export interface GrantExplanation {
  readonly entry: string;
  readonly tools: readonly string[];
  readonly status: GrantStatus;
  readonly reason: string;
  /** A call the entry names (its own words, for a command), decided with the skill active. */
  readonly example?: ExplainedCall;
  /** For an entry that covers script runs: what `skillhost run` does with each of them. */
  readonly runs?: readonly ExplainedCall[];
  /** For a command grant: rows of the option table that still ask (`git -c`, `find -exec`). */
  readonly exceptions?: readonly string[];
}

/** A script of the skill, for saying what running it would do. */
export interface ExplainScript {
  /** Its path under scripts/. */
  readonly path: string;
  /** sh, bash, python3 or node. */
  readonly interpreter: string;
  /** SHA-256 of its bytes (approvals are bound to it). */
  readonly contentHash: string;
}

/** The host's options and the skill, as `skillhost run` would have them. */
export interface ExplainOptions {
  readonly trusted: boolean;
  /** The host's tools: the ceiling. */
  readonly hostTools: readonly string[];
  readonly deny?: readonly string[];
  readonly narrow?: boolean;
  readonly shadow?: boolean;
  readonly defaults?: PolicyConfig['defaults'];
  readonly defaultDecision?: Decision;
  /** The skill's scripts: entries that cover them say what running each would do. */
  readonly scripts?: readonly ExplainScript[];
  /** Approvals the user gave ("always"), as the runtime looks them up. */
  readonly approved?: (key: string) => boolean;
  /** The skill's address and source id (approvals are keyed by them). */
  readonly skill?: { readonly address: string; readonly source: string };
}

/** A word as a shell command line would need it written. */
function quoteWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A path that a glob matches, for an example call (`references/**` → `references/x`). */
function sampleOf(glob: string): string {
  return glob.replace(/\*\*/g, 'x').replace(/\*/g, 'x').replace(/\?/g, 'x');
}

const interpreterNames: Readonly<Record<string, string>> = {
  sh: 'sh',
  bash: 'bash',
  dash: 'sh',
  python: 'python3',
  python3: 'python3',
  node: 'node',
  nodejs: 'node',
};

/** The script a command grant names (`Bash(sh scripts/x.sh:*)`), if it names one. */
function namedScript(
  grant: ToolGrant,
): { path: string; interpreter?: string; args: string[] } | undefined {
  const argv = grant.command?.argv ?? [];
  const strip = (path: string) => path.replace(/^\.\//, '');
  const [first, second, ...rest] = argv;
  if (first !== undefined && strip(first).startsWith('scripts/'))
    return { path: strip(first), args: argv.slice(1) };
  const interpreter = interpreterNames[first ?? ''];
  if (interpreter !== undefined && second !== undefined && strip(second).startsWith('scripts/'))
    return { path: strip(second), interpreter, args: rest };
  return undefined;
}

/** Decides calls with the skill active under the host's options, as the runtime would. */
function decider(options: ExplainOptions) {
  const config: PolicyConfig = {
    tools: options.hostTools,
    deny: options.deny ?? [],
    ...(options.narrow === undefined ? {} : { narrow: options.narrow }),
    ...(options.shadow === undefined ? {} : { shadow: options.shadow }),
    ...(options.defaults === undefined ? {} : { defaults: options.defaults }),
    ...(options.defaultDecision === undefined ? {} : { defaultDecision: options.defaultDecision }),
  };
  const skill = options.skill ?? { address: 'skill', source: 'skill' };
  // The runtime activates the skill first, through its own gate: its tools allowed by default.
  const gate = evaluate(
    { tool: 'activate_skill', path: skill.address },
    {
      config: {
        ...config,
        defaults: {
          ...Object.fromEntries(RUNTIME_TOOLS_ALLOWED_BY_DEFAULT.map((tool) => [tool, 'allow'])),
          ...config.defaults,
        },
      },
      active: [],
    },
  );
  const refused = gate.effect === 'allow' ? undefined : gate;
  const decide = (
    grants: readonly ToolGrant[],
    request: ToolRequest,
    call: string,
  ): ExplainedCall => {
    if (refused !== undefined && request.tool === 'run_skill_script') {
      // `skillhost run` stops at the activation.
      const reason = `The skill cannot be activated: ${refused.reason}`;
      return {
        call,
        decision: refused.decision,
        effect: refused.effect,
        rule: refused.rule,
        reason,
      };
    }
    const active: ActiveSkillGrants = {
      address: skill.address,
      source: skill.source,
      trusted: options.trusted,
      contentHash: undefined,
      grants,
    };
    const decision = evaluate(request, {
      config,
      active: [active],
      ...(options.approved === undefined ? {} : { approved: options.approved }),
    });
    return {
      call,
      decision: decision.decision,
      effect: decision.effect,
      rule: decision.rule,
      reason: decision.reason,
    };
  };
  const scriptRequest = (script: ScriptSample): ToolRequest => ({
    tool: 'run_skill_script',
    script: {
      skill: skill.address,
      source: skill.source,
      path: script.path,
      contentHash: script.contentHash ?? '',
      ...(script.interpreter === undefined ? {} : { interpreter: script.interpreter }),
      args: script.args ?? [],
    },
  });
  const scriptCall = (script: ScriptSample) =>
    [script.path, ...(script.args ?? [])].map(quoteWord).join(' ');
  return { decide, scriptRequest, scriptCall, activatable: refused === undefined };
}

type ScriptSample = {
  readonly path: string;
  readonly interpreter?: string;
  readonly contentHash?: string;
  readonly args?: readonly string[];
};

/**
 * What `skillhost run` does with each of the skill's scripts (no arguments) while the skill is
 * active with all its entries, under the host's options: the engine's own decision.
 */
export function explainScripts(
  allowedTools: string | undefined,
  options: ExplainOptions,
): ExplainedCall[] {
  const { decide, scriptRequest, scriptCall } = decider(options);
  const grants = parseAllowedTools(allowedTools ?? '').grants;
  return (options.scripts ?? []).map((script) =>
    decide(grants, scriptRequest(script), scriptCall(script)),
  );
}

/**
 * Entry by entry: what a skill requests, what the host grants, what it denies or asks for, and
 * why. Every verdict is the engine's own decision on a call the entry names, with the skill active
 * under the host's options (and, for the skill's scripts, the decision `skillhost run` gets), so
 * that the explanation cannot disagree with what happens.
 */
export function explainGrants(
  allowedTools: string | undefined,
  options: ExplainOptions,
): GrantExplanation[] {
  if (allowedTools === undefined || allowedTools.trim() === '') return [];
  const parsed = parseAllowedTools(allowedTools);
  const { decide: decideWith, scriptRequest, scriptCall, activatable } = decider(options);
  const ceiling = new Set(options.hostTools.map((name) => canonicalTool(name) ?? name));
  const denyRules = parseAllowedTools((options.deny ?? []).join(' ')).grants;
  const explanations: Array<GrantExplanation & { offset: number }> = [];
  for (const problem of parsed.problems) {
    if (problem.kind === 'too-broad') continue;
    explanations.push({
      entry: problem.raw,
      tools: [],
      status: 'invalid',
      reason: problem.message,
      offset: problem.offset,
    });
  }
  for (const grant of parsed.grants) {
    const base = { entry: grant.raw, tools: grant.tools, offset: grant.offset };
    const missing = grant.tools.filter((tool) => !ceiling.has(tool));
    const present = grant.tools.filter((tool) => ceiling.has(tool));
    // The calls the entry names, one per tool it stands for.
    const examples = (present.length === 0 ? grant.tools.slice(0, 1) : present).map((tool) =>
      decideWith([grant], exampleRequest(grant, tool), exampleCall(grant, tool)),
    );
    const runs = scriptRuns(grant, options.scripts ?? []).map((script) =>
      decideWith([grant], scriptRequest(script), scriptCall(script)),
    );
    const exceptions =
      grant.command?.prefix === true && grant.preApprovable ? tableRowsFor(grant.command.argv) : [];
    const extra = {
      ...(examples[0] === undefined ? {} : { example: examples[0] }),
      ...(runs.length === 0 ? {} : { runs }),
    };
    const excepted = exceptions.length === 0 ? {} : { exceptions };
    // While the skill is active: runs count only when `skillhost run` can activate it.
    const verdicts = activatable ? [...examples, ...runs] : examples;
    const allowed = verdicts.filter((verdict) => verdict.decision === 'allow');
    const denied = examples.filter((verdict) => verdict.decision === 'deny');
    if (present.length === 0) {
      explanations.push({
        ...base,
        ...extra,
        status: 'unavailable',
        reason: `The host does not have ${missing.join(', ')}: dropped, never added`,
      });
      continue;
    }
    if (denied.length === examples.length) {
      explanations.push({
        ...base,
        ...extra,
        status: 'denied',
        reason: (denied[0] as ExplainedCall).reason,
      });
      continue;
    }
    if (!grant.preApprovable) {
      explanations.push({
        ...base,
        ...extra,
        status: 'narrows-only',
        reason: 'Too broad to pre-approve: calls still ask; it only counts when narrowing',
      });
      continue;
    }
    if (!options.trusted) {
      explanations.push({
        ...base,
        ...extra,
        status: 'untrusted',
        reason: 'The skill is untrusted: its request never skips confirmation',
      });
      continue;
    }
    const partial = partialDenials(grant, denyRules);
    if (allowed.length === 0) {
      const first = verdicts.find((verdict) => verdict.decision !== 'allow') as ExplainedCall;
      explanations.push({
        ...base,
        ...extra,
        status: 'overruled',
        reason: `The host's options take its pre-approval away: ${first.reason}`,
      });
      continue;
    }
    const notes: string[] = [];
    if (missing.length > 0) notes.push(`the host lacks ${missing.join(', ')}, which is dropped`);
    for (const verdict of verdicts) {
      if (verdict.decision !== 'allow')
        notes.push(`${verdict.call}: ${verdict.decision} (${verdict.reason})`);
    }
    if (partial.length > 0)
      notes.push(`the host denies ${partial.map((rule) => `${quote(rule)}`).join(', ')}`);
    if (exceptions.length > 0) notes.push('options that run other programs still ask');
    const limited = verdicts.length !== allowed.length || partial.length > 0 || missing.length > 0;
    explanations.push({
      ...base,
      ...extra,
      ...excepted,
      status: limited ? 'limited' : 'granted',
      reason: `Pre-approves matching ${present.join(', ')} calls while the skill is active${notes.length === 0 ? '' : `, except: ${notes.join('; ')}`}`,
    });
  }
  return explanations
    .sort((a, b) => a.offset - b.offset)
    .map(({ offset: _offset, ...rest }) => rest);
}

/** The call an entry names for one of its tools. */
function exampleRequest(grant: ToolGrant, tool: CanonicalTool): ToolRequest {
  if (COMMAND_TOOLS.has(tool)) return { tool, command: exampleCall(grant, tool) };
  if (tool === 'run_skill_script') {
    return {
      tool,
      script: {
        skill: 'skill',
        source: 'skill',
        path: sampleOf(grant.path ?? 'scripts/*'),
        contentHash: '',
        args: [],
      },
    };
  }
  return { tool, ...(grant.path === undefined ? {} : { path: sampleOf(grant.path) }) };
}

function exampleCall(grant: ToolGrant, tool: CanonicalTool): string {
  if (COMMAND_TOOLS.has(tool)) return (grant.command?.argv ?? ['COMMAND']).map(quoteWord).join(' ');
  if (tool === 'run_skill_script') return sampleOf(grant.path ?? 'scripts/*');
  return grant.path === undefined ? tool : `${tool} ${sampleOf(grant.path)}`;
}

/** The script runs an entry covers: the skill's scripts it matches, or the one its words name. */
function scriptRuns(grant: ToolGrant, scripts: readonly ExplainScript[]): ScriptSample[] {
  const named = namedScript(grant);
  const covered: ScriptSample[] = [];
  for (const script of scripts) {
    const args = named !== undefined && named.path === script.path ? named.args : [];
    if (coversScript(grant, { ...script, args }).covered) covered.push({ ...script, args });
  }
  if (covered.length === 0 && named !== undefined) covered.push(named);
  return covered;
}

/** Host deny rules that take part of what an entry covers (`Bash(git push:*)` under `Bash(git:*)`). */
function partialDenials(grant: ToolGrant, rules: readonly ToolGrant[]): string[] {
  const found: string[] = [];
  for (const rule of rules) {
    if (!rule.tools.some((tool) => grant.tools.includes(tool))) continue;
    if (grant.command !== undefined && rule.command !== undefined) {
      if (grant.command.prefix && argvMatches(rule.command.argv, grant.command))
        found.push(rule.raw);
    } else if (
      rule.path !== undefined &&
      (grant.path === undefined || globMatches(grant.path, sampleOf(rule.path)))
    ) {
      found.push(rule.raw);
    }
  }
  return found;
}
