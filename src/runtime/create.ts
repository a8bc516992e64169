import type { AuditSink } from '../audit/trail.js';
import type {
  CacheStore,
  ContentHasher,
  ScriptLimits,
  ScriptRunner,
  SkillFileSystem,
} from '../deps.js';
import type { YamlSource } from '../format/yaml-engine.js';
import type { PolicyConfig } from '../policy/engine.js';
import type { SkillSource } from '../registry/sources.js';
import {
  type ApprovalAnswer,
  type ApprovalQuestion,
  type ApprovalStore,
  type RuntimeOptions,
  SkillRuntime,
} from './runtime.js';

/** The outside world a runtime needs; `skillhost/node` makes one with `nodeRuntimeDeps()`. */
export interface SkillRuntimeDeps {
  readonly fs: SkillFileSystem;
  readonly hash: ContentHasher;
  readonly now: () => Date;
  /** Runs scripts (the node entry's bubblewrap runner); without it, no script runs. */
  readonly runner?: ScriptRunner;
  readonly cache?: CacheStore;
  /** Asks the user about a call the policy wants confirmed; without it, such calls are refused. */
  readonly confirm?: (question: ApprovalQuestion) => Promise<ApprovalAnswer>;
  /** Lasting approvals ("always"), bound to source, skill, content hash and script. */
  readonly approvals?: ApprovalStore;
  /**
   * The YAML library, or a function that loads it, for a frontmatter the fast scanner cannot
   * read (`nodeRuntimeDeps()` gives a loader; the `skillhost` entry, the library itself).
   */
  readonly yaml?: YamlSource;
}

export interface CreateSkillRuntimeOptions
  extends Omit<
    RuntimeOptions,
    | 'fs'
    | 'hash'
    | 'now'
    | 'cache'
    | 'confirm'
    | 'approvals'
    | 'scripts'
    | 'policy'
    | 'audit'
    | 'yaml'
  > {
  readonly sources: readonly SkillSource[];
  /** The host's tools (the ceiling), deny rules, defaults, narrowing, shadow mode. */
  readonly policy: PolicyConfig;
  /** Where the audit trail goes; every capability fails closed when it cannot be written. */
  readonly audit: { readonly sink: AuditSink; readonly sessionId: string };
  readonly deps: SkillRuntimeDeps;
  /** Script limits, workspace and the unsandboxed escape hatch (used with `deps.runner`). */
  readonly scripts?: {
    readonly limits?: Partial<ScriptLimits>;
    readonly allowUnsandboxed?: boolean;
    readonly workspace?: { readonly path: string; readonly writable: boolean };
  };
}

/**
 * One object that owns the registry, the policy and the audit trail, for every way a skill is
 * reached (library, CLI, MCP server, adapters): `catalog()`, `activate()`, `readResource()`,
 * `runScript()`, `route()`, `tools()` and `callTool()`.
 */
export function createSkillRuntime(options: CreateSkillRuntimeOptions): SkillRuntime {
  const { deps, scripts, ...rest } = options;
  return SkillRuntime.open({
    ...rest,
    fs: deps.fs,
    hash: deps.hash,
    now: deps.now,
    ...(deps.cache === undefined ? {} : { cache: deps.cache }),
    ...(deps.confirm === undefined ? {} : { confirm: deps.confirm }),
    ...(deps.approvals === undefined ? {} : { approvals: deps.approvals }),
    ...(deps.yaml === undefined ? {} : { yaml: deps.yaml }),
    ...(deps.runner === undefined ? {} : { scripts: { runner: deps.runner, ...scripts } }),
  });
}
