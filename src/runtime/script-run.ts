import type { AuditEventInput } from '../audit/trail.js';
import type {
  ContentHasher,
  SandboxExplanation,
  ScriptLimits,
  ScriptRunner,
  ScriptRunRequest,
  ScriptRunResult,
  ScriptWorkspace,
  SkillFileSystem,
} from '../deps.js';
import { SkillhostError } from '../errors.js';
import { approvalKey, type PolicyDecision, type ToolRequest } from '../policy/engine.js';
import type { RegistryEntry } from '../registry/registry.js';
import {
  approvalRecord,
  failureRecord,
  type ScriptCall,
  scriptDecisionRecord,
  userRefusalRecord,
} from './records.js';
import { loadScript } from './scripts.js';
import type { ApprovalAnswer, ApprovalQuestion, ApprovalStore, ScriptRun } from './types.js';

export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = Object.freeze({
  timeoutMs: 60_000,
  maxProcesses: 64,
  maxMemoryBytes: 2 * 1024 * 1024 * 1024,
  maxFileBytes: 64 * 1024 * 1024,
  maxWriteBytes: 512 * 1024 * 1024,
  maxOpenFiles: 256,
  maxCapturedBytes: 32 * 1024,
  maxOutputBytes: 64 * 1024 * 1024,
});

/** How scripts run: the runner, its limits, the workspace and the unsandboxed escape hatch. */
export interface ScriptSettings {
  readonly runner: ScriptRunner;
  readonly limits?: Partial<ScriptLimits>;
  /** Run without an OS sandbox when none is available (logged as such). Default false. */
  readonly allowUnsandboxed?: boolean;
  /** A folder scripts see as their working directory (read-only unless writable). */
  readonly workspace?: ScriptWorkspace;
  /**
   * Give runs the network (default false). Each skill's script needs the user's confirmation
   * for it (a stored "always" for its exact content, a `yes`, or the one-run flag), recorded.
   */
  readonly allowNetwork?: boolean;
  /**
   * The folder of environments `skillhost setup` prepares (`$SKILLHOST_HOME/envs`): a skill
   * that declares its dependencies runs with the one made for its exact content.
   */
  readonly environments?: string;
}

/** What running a script needs of the runtime that owns it. */
export interface ScriptHost {
  readonly fs: SkillFileSystem;
  readonly hash: ContentHasher;
  readonly scripts: ScriptSettings | undefined;
  readonly approvals: ApprovalStore | undefined;
  readonly confirm: ((question: ApprovalQuestion) => Promise<ApprovalAnswer>) | undefined;
  /** The usable entry of a name or address (throws SKILL_NOT_FOUND or SKILL_UNAVAILABLE). */
  usable(name: string): RegistryEntry;
  isActive(address: string): boolean;
  /** The policy's decision on a call, with the grants in force and the stored approvals. */
  decide(request: ToolRequest): PolicyDecision;
  record(input: AuditEventInput): void;
}

/**
 * Runs a script of an active skill: only a regular text file under the skill's scripts/ folder,
 * with an allowed interpreter and arguments without NUL; the policy decides (pre-approved,
 * confirmed once or always for this exact content, or refused); a runner that cannot sandbox is
 * found out before anyone is asked; the bytes that were hashed are the bytes that run; every
 * step is recorded before it takes effect.
 */
export async function runSkillScript(
  host: ScriptHost,
  name: string,
  script: string,
  args: readonly string[],
  approveOnce: boolean,
): Promise<ScriptRun> {
  const fail = (error: unknown, extra: Parameters<typeof failureRecord>[3] = {}): never => {
    host.record(
      failureRecord('script-run', name, error, {
        call: { script: script.slice(0, 300) },
        ...extra,
      }),
    );
    throw error;
  };
  let entry: RegistryEntry;
  let loaded: ReturnType<typeof loadScript>;
  try {
    entry = host.usable(name);
    if (!host.isActive(entry.address)) {
      throw new SkillhostError(
        'SKILL_NOT_ACTIVE',
        `Skill ${entry.address} is not active; activate it before running its scripts`,
      );
    }
    loaded = loadScript(host.fs, host.hash, entry, script, args);
  } catch (error) {
    return fail(error);
  }
  const { path, bytes, contentHash, interpreter } = loaded;
  const call: ScriptCall = { script: path, args: [...args], interpreter };
  const where = { source: entry.source.id, contentHash, call };
  const decision = host.decide({
    tool: 'run_skill_script',
    script: {
      skill: entry.address,
      source: entry.source.id,
      path,
      contentHash,
      interpreter,
      args,
    },
  });
  host.record(scriptDecisionRecord(entry, contentHash, call, decision));
  let approvedBy: ScriptRun['approvedBy'] = decision.decision === 'allow' ? 'policy' : 'shadow';
  if (decision.effect === 'deny') {
    throw new SkillhostError(
      'PERMISSION_DENIED',
      `Running ${path} of ${entry.address} is denied: ${decision.reason}`,
      { details: { rule: decision.rule } },
    );
  }
  const scripts = host.scripts;
  // A run that cannot happen is refused before anyone is asked to approve it.
  if (scripts === undefined) {
    return fail(
      new SkillhostError('SANDBOX_UNAVAILABLE', 'This runtime has no script runner'),
      where,
    );
  }
  const sandbox = scripts.runner.sandbox();
  if (!sandbox.available && scripts.allowUnsandboxed !== true) {
    return fail(
      new SkillhostError(
        'SANDBOX_UNAVAILABLE',
        `Cannot run scripts in a sandbox: ${sandbox.reason}`,
      ),
      where,
    );
  }
  const network = scripts.allowNetwork === true;
  if (decision.effect === 'ask') {
    approvedBy = await confirmRun(
      host,
      entry,
      contentHash,
      call,
      decision,
      approveOnce,
      network,
      bytes,
    );
  } else if (network) {
    // Allowed to run, but not yet with the network: that is the user's to confirm.
    await confirmNetwork(host, entry, contentHash, call, approveOnce, bytes);
  }
  let result: ScriptRunResult;
  try {
    result = await scripts.runner.run(scriptRequest(scripts, entry, loaded, args));
  } catch (error) {
    return fail(error, where);
  }
  host.record({
    event: 'script-run',
    skill_name: entry.name,
    source: entry.source.id,
    content_hash: contentHash,
    loaded_files: [path],
    tool_or_script_calls: [
      {
        ...call,
        decision: 'allow',
        approved_by: approvedBy,
        exit_code: result.exitCode,
        signal: result.signal,
        timed_out: result.timedOut,
        output_limited: result.outputLimited,
        ...(result.resourceLimit === undefined ? {} : { resource_limit: result.resourceLimit }),
        ...(result.writtenBytes === undefined ? {} : { written_bytes: result.writtenBytes }),
        duration_ms: result.durationMs,
        sandbox: result.sandbox,
        stdout_bytes: result.stdout.totalBytes,
        stderr_bytes: result.stderr.totalBytes,
      },
    ],
    details: {
      ...(network ? { network: 'allowed' } : {}),
      ...(result.sandbox === 'none'
        ? { warning: 'ran without an OS sandbox, as explicitly allowed' }
        : {}),
      ...(result.written === undefined || result.written.count === 0
        ? {}
        : {
            written: {
              count: result.written.count,
              files: result.written.files.slice(0, 50).map((file) => file.location),
            },
          }),
      ...(result.notStaged === undefined
        ? {}
        : {
            not_staged: {
              count: result.notStaged.count,
              files: result.notStaged.files.map((file) => `${file.path} (${file.reason})`),
            },
          }),
    },
  });
  return { skill: entry.address, script: path, contentHash, decision, approvedBy, result };
}

/** The key of a stored "always" for a script's run with the network. */
function networkKey(entry: RegistryEntry, contentHash: string, script: string): string {
  return approvalKey({
    source: entry.source.id,
    skill: entry.address,
    contentHash,
    subject: `network:${script}`,
  });
}

/**
 * The network for a run the policy allows: a stored "always" for this exact content, the
 * one-run flag, or the user's answer; else refused.
 */
async function confirmNetwork(
  host: ScriptHost,
  entry: RegistryEntry,
  contentHash: string,
  call: ScriptCall,
  approveOnce: boolean,
  bytes: Uint8Array,
): Promise<void> {
  const key = networkKey(entry, contentHash, call.script);
  if (host.approvals?.has(key) === true) return;
  await confirmRun(
    host,
    entry,
    contentHash,
    call,
    {
      decision: 'ask',
      effect: 'ask',
      rule: 'host-default',
      reason: 'the run would have the network (--allow-net)',
    } as PolicyDecision,
    approveOnce,
    true,
    bytes,
  );
}

/** The runner's request for a checked script, under the runtime's script settings. */
function scriptRequest(
  scripts: ScriptSettings,
  entry: RegistryEntry,
  loaded: ReturnType<typeof loadScript>,
  args: readonly string[],
): ScriptRunRequest {
  return {
    skillDirectory: entry.directory,
    scriptPath: loaded.path,
    scriptBytes: loaded.bytes,
    interpreter: loaded.interpreter,
    args,
    limits: { ...DEFAULT_SCRIPT_LIMITS, ...scripts.limits },
    ...(scripts.workspace === undefined ? {} : { workspace: scripts.workspace }),
    ...(scripts.allowUnsandboxed === true ? { allowUnsandboxed: true } : {}),
    ...(scripts.allowNetwork === true ? { network: true } : {}),
    ...(scripts.environments === undefined ? {} : { environments: scripts.environments }),
    trusted: entry.source.trust === 'trusted',
  };
}

/**
 * What a script of a skill would see if it ran now (the runner's own plan, nothing run, no
 * approval asked): `skillhost sandbox explain`. Needs a runner that explains.
 */
export async function explainSkillScript(
  host: ScriptHost,
  name: string,
  script: string,
  args: readonly string[],
): Promise<SandboxExplanation> {
  const entry = host.usable(name);
  const loaded = loadScript(host.fs, host.hash, entry, script, args);
  const scripts = host.scripts;
  if (scripts?.runner.explain === undefined)
    throw new SkillhostError(
      'SANDBOX_UNAVAILABLE',
      'This runtime has no runner that explains its plan',
    );
  return scripts.runner.explain(scriptRequest(scripts, entry, loaded, args));
}

/** Asks for a run the policy wants confirmed: a flag's approval, the user, or a refusal. */
async function confirmRun(
  host: ScriptHost,
  entry: RegistryEntry,
  contentHash: string,
  call: ScriptCall,
  decision: PolicyDecision,
  approveOnce: boolean,
  network = false,
  bytes?: Uint8Array,
): Promise<'once' | 'always'> {
  const withNetwork = network ? ', with the network' : '';
  if (approveOnce) {
    host.record({
      ...approvalRecord(entry, contentHash, call, 'once', 'flag'),
      ...(network ? { details: { scope: 'once', by: 'flag', network: 'allowed' } } : {}),
    });
    return 'once';
  }
  if (host.confirm === undefined) {
    throw new SkillhostError(
      'PERMISSION_REQUIRED',
      `Running ${call.script} of ${entry.address}${withNetwork} needs confirmation: ${decision.reason}. Nobody can be asked here: approve this one run with --yes, or approve this exact script ahead with skillhost approve ${entry.name} ${call.script}`,
    );
  }
  const answer = await host.confirm({
    kind: 'script',
    skill: entry.address,
    source: entry.source.id,
    trusted: entry.source.trust === 'trusted',
    script: call.script,
    contentHash,
    interpreter: call.interpreter,
    args: call.args,
    reason: decision.reason,
    ...(bytes === undefined ? {} : { text: new TextDecoder().decode(bytes) }),
    ...(network ? { network: true } : {}),
  });
  if (answer === 'no') {
    host.record(userRefusalRecord(entry, contentHash, call));
    throw new SkillhostError(
      'PERMISSION_DENIED',
      `Running ${call.script} of ${entry.address} was refused`,
    );
  }
  if (answer === 'always') {
    const key = approvalKey({
      source: entry.source.id,
      skill: entry.address,
      contentHash,
      subject: `script:${call.script}`,
    });
    host.record(approvalRecord(entry, contentHash, call, 'always', 'user'));
    host.approvals?.add(key, { skill: entry.address, script: call.script, contentHash });
    if (network)
      host.approvals?.add(networkKey(entry, contentHash, call.script), {
        skill: entry.address,
        script: call.script,
        contentHash,
        kind: 'network',
      });
    return 'always';
  }
  host.record(approvalRecord(entry, contentHash, call, 'once', 'user'));
  return 'once';
}

/**
 * Approves a script ahead of any run ("always", for its exact content), as `skillhost approve`
 * does: the same checks as a run, the same key as an "always" answer, one audit record. With
 * `network`, its runs with the network are approved too.
 */
export function approveSkillScript(
  host: ScriptHost,
  name: string,
  script: string,
  network: boolean,
): { readonly skill: string; readonly script: string; readonly contentHash: string } {
  const entry = host.usable(name);
  const { path, contentHash, interpreter } = loadScript(host.fs, host.hash, entry, script, []);
  if (host.approvals === undefined)
    throw new SkillhostError(
      'PERMISSION_REQUIRED',
      'This runtime keeps no approvals, so none can be given ahead',
    );
  const call: ScriptCall = { script: path, args: [], interpreter };
  host.record(approvalRecord(entry, contentHash, call, 'always', 'user'));
  host.approvals.add(
    approvalKey({
      source: entry.source.id,
      skill: entry.address,
      contentHash,
      subject: `script:${path}`,
    }),
    { skill: entry.address, script: path, contentHash },
  );
  if (network)
    host.approvals.add(networkKey(entry, contentHash, path), {
      skill: entry.address,
      script: path,
      contentHash,
      kind: 'network',
    });
  return { skill: entry.address, script: path, contentHash };
}
