import type { AuditEventInput, AuditSink } from '../audit/trail.js';
import type { CacheStore, ContentHasher, ScriptWorkspace, SkillFileSystem } from '../deps.js';
import type { CatalogOptions } from '../disclosure/catalog.js';
import type { ResourceOptions } from '../disclosure/resources.js';
import type { YamlSource } from '../format/yaml-engine.js';
import { type ActiveSkillGrants, evaluate, type PolicyConfig } from '../policy/engine.js';
import { WORKSPACE_TOOLS_ALLOWED_BY_DEFAULT } from '../policy/tools.js';
import type { DiscoveryOptions } from '../registry/discover.js';
import { SkillRegistry } from '../registry/registry.js';
import type { SkillSource, SourceKind } from '../registry/sources.js';
import type { WorkspaceFiles } from '../workspace-deps.js';
import { DEFAULT_SCRIPT_LIMITS, type ScriptSettings } from './script-run.js';
import type { ApprovalAnswer, ApprovalQuestion, ApprovalStore } from './types.js';
import type { WorkspaceToolHost } from './workspace-tools.js';

/** Everything a runtime is made of; `createSkillRuntime` builds this from its options. */
export interface RuntimeParts {
  readonly fs: SkillFileSystem;
  readonly sources: readonly SkillSource[];
  readonly hash: ContentHasher;
  readonly policy: PolicyConfig;
  readonly audit: { readonly sink: AuditSink; readonly sessionId: string };
  readonly now: () => Date;
  readonly precedence?: readonly SourceKind[];
  readonly discovery?: DiscoveryOptions;
  readonly cache?: CacheStore;
  readonly version?: string;
  readonly keepScans?: boolean;
  readonly indexFirst?: boolean;
  /** The YAML library or its loader, for a frontmatter the fast scanner cannot read. */
  readonly yaml?: YamlSource;
  readonly scripts?: ScriptSettings;
  readonly approvals?: ApprovalStore;
  readonly confirm?: (question: ApprovalQuestion) => Promise<ApprovalAnswer>;
  readonly resources?: ResourceOptions;
  readonly scope?: readonly string[];
  readonly catalog?: CatalogOptions;
  /** Listing caps for activation and `listFiles` (defaults 100 files, 4 levels). */
  readonly listing?: { readonly maxFiles?: number; readonly maxDepth?: number };
  /** The host tools over the workspace: its files, and the workspace as granted (bash runs in it). */
  readonly workspaceTools?: { readonly files: WorkspaceFiles; readonly workspace: ScriptWorkspace };
  readonly disabled?: readonly string[];
  readonly externalSkills?: readonly string[];
}

/** The registry a runtime's parts describe. */
export function openRuntimeRegistry(parts: RuntimeParts): SkillRegistry {
  return SkillRegistry.open({
    fs: parts.fs,
    sources: parts.sources,
    hash: parts.hash,
    ...(parts.precedence === undefined ? {} : { precedence: parts.precedence }),
    ...(parts.discovery === undefined ? {} : { discovery: parts.discovery }),
    ...(parts.cache === undefined ? {} : { cache: parts.cache }),
    ...(parts.version === undefined ? {} : { version: parts.version }),
    ...(parts.keepScans === undefined ? {} : { keepScans: parts.keepScans }),
    ...(parts.indexFirst === undefined ? {} : { indexFirst: parts.indexFirst }),
    ...(parts.yaml === undefined ? {} : { yaml: parts.yaml }),
    ...(parts.disabled === undefined ? {} : { disabled: parts.disabled }),
    ...(parts.externalSkills === undefined ? {} : { externalSkills: parts.externalSkills }),
  });
}

/**
 * The host tools' view of a runtime: its read-only tools allowed unless the host says otherwise;
 * `runtime` gives the grants of the skills active now and records to its audit trail.
 */
export function workspaceHostOf(
  parts: RuntimeParts,
  runtime: {
    readonly grants: () => readonly ActiveSkillGrants[];
    readonly record: (input: AuditEventInput) => void;
  },
): WorkspaceToolHost {
  const config: PolicyConfig = {
    ...parts.policy,
    defaults: {
      ...Object.fromEntries(WORKSPACE_TOOLS_ALLOWED_BY_DEFAULT.map((tool) => [tool, 'allow'])),
      ...parts.policy.defaults,
    },
  };
  const runner = parts.scripts?.runner;
  const allowUnsandboxed = parts.scripts?.allowUnsandboxed === true;
  return {
    hostTools: parts.policy.tools,
    defaults: parts.policy.defaults,
    files: parts.workspaceTools?.files,
    workspace: parts.workspaceTools?.workspace,
    runCommand: runner?.runCommand?.bind(runner),
    sandboxProblem: () => {
      const sandbox = runner?.sandbox();
      return sandbox === undefined || sandbox.available || allowUnsandboxed
        ? undefined
        : `Cannot run commands in a sandbox: ${sandbox.reason}`;
    },
    limits: { ...DEFAULT_SCRIPT_LIMITS, ...parts.scripts?.limits },
    allowUnsandboxed,
    hash: parts.hash,
    decide: (request) => evaluate(request, { config, active: runtime.grants() }),
    confirm: parts.confirm,
    record: runtime.record,
  };
}
