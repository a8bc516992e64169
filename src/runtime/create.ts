import type { AuditSink } from '../audit/trail.js';
import type {
  CacheStore,
  ContentHasher,
  ScriptLimits,
  ScriptRunner,
  ScriptWorkspace,
  SkillFileSystem,
} from '../deps.js';
import type { CatalogOptions } from '../disclosure/catalog.js';
import type { ResourceOptions } from '../disclosure/resources.js';
import { SkillhostError } from '../errors.js';
import type { YamlSource } from '../format/yaml-engine.js';
import type { PolicyConfig } from '../policy/engine.js';
import type { DiscoveryOptions } from '../registry/discover.js';
import type { SkillSource, SourceKind } from '../registry/sources.js';
import type { WorkspaceFiles } from '../workspace-deps.js';
import { Runtime } from './runtime.js';
import type { ApprovalAnswer, ApprovalQuestion, ApprovalStore, SkillRuntime } from './types.js';

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
  /** Opens a workspace for the host tools (`createWorkspaceFiles` in the node entry). */
  readonly workspaceFiles?: (workspace: ScriptWorkspace) => WorkspaceFiles;
}

export interface CreateSkillRuntimeOptions {
  /** Where skills are found, highest precedence first within a kind. */
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
    readonly workspace?: ScriptWorkspace;
    /** Give runs the network, once the user confirms it per skill and script (recorded). */
    readonly allowNetwork?: boolean;
    /**
     * The folder of environments `skillhost setup` prepares (`$SKILLHOST_HOME/envs`): a skill
     * that declares its dependencies runs with the one made for its exact content.
     */
    readonly environments?: string;
  };
  /** Which kinds of source win a name collision, highest first. */
  readonly precedence?: readonly SourceKind[];
  /** Discovery limits (depth, folders, skills per source, links). */
  readonly discovery?: DiscoveryOptions;
  /** Version string mixed into index cache keys. */
  readonly version?: string;
  /**
   * Keep discovery's scans for fast refreshes (default true); a one-shot caller saves memory
   * with false.
   */
  readonly keepScans?: boolean;
  /**
   * Open from the index cache as it was saved, checking no file (a source without an index is
   * scanned as usual): for a server that must answer at once. The first `refresh()` (the MCP
   * server's watch starts with one) checks every file and reports what changed.
   */
  readonly indexFirst?: boolean;
  /** Bounds on resource reads (size, binary handling). */
  readonly resources?: ResourceOptions;
  /**
   * The skills offered to the model (names): the catalog, search and the model-facing tools see
   * only these. Default: every usable skill. Narrows only; it never makes a skill usable.
   */
  readonly scope?: readonly string[];
  /** Defaults for the catalog (format, token budget, exact counter). */
  readonly catalog?: CatalogOptions;
  /** Caps on the file listings of activation and `listFiles` (default 100 files, 4 levels). */
  readonly listing?: { readonly maxFiles?: number; readonly maxDepth?: number };
  /**
   * Offer the host tools over `scripts.workspace` (default false: an MCP server serves the skill
   * tools only): `workspace_read`, `workspace_list`, `workspace_glob`, `workspace_grep`, with a
   * writable workspace `workspace_write` and `workspace_edit`, with a runner that runs commands
   * `workspace_bash`; each within the policy's tools (the ceiling). Needs `deps.workspaceFiles`.
   */
  readonly workspaceTools?: boolean;
  /** Skill names the user switched off: listed as `disabled`, never offered or activated. */
  readonly disabled?: readonly string[];
  /**
   * Skills installed from a source outside the user's control (skill directories, or folders of
   * them): untrusted whatever their source's trust, until the user trusts them.
   */
  readonly externalSkills?: readonly string[];
}

/**
 * The one way to make a runtime: discovers the sources, starts the audit session and records
 * what was found. Every way a skill is reached (library, CLI, MCP server, adapters, agents)
 * goes through the object it returns.
 *
 * @example const runtime = createSkillRuntime({ sources, policy: { tools: [...CANONICAL_TOOLS] }, audit: { sink, sessionId }, deps: nodeRuntimeDeps() });
 */
export function createSkillRuntime(options: CreateSkillRuntimeOptions): SkillRuntime {
  const { deps, scripts, workspaceTools, ...rest } = options;
  const workspace = scripts?.workspace;
  if (workspaceTools === true && (workspace === undefined || deps.workspaceFiles === undefined))
    throw new SkillhostError(
      'USAGE',
      'workspaceTools needs a workspace (scripts.workspace) and deps.workspaceFiles to open it',
    );
  return new Runtime({
    ...rest,
    ...(workspaceTools === true && workspace !== undefined && deps.workspaceFiles !== undefined
      ? { workspaceTools: { files: deps.workspaceFiles(workspace), workspace } }
      : {}),
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
