import type { SkillRuntimeDeps } from '../core.js';
import { createNodeFileSystem } from './fs.js';
import { sha256 } from './hash.js';
import { createSandboxRunner, type SandboxOptions } from './sandbox.js';
import { createWorkspaceFiles } from './workspace-files.js';
import { loadYaml } from './yaml.js';

/**
 * The real world for `createSkillRuntime`: the node file system with its safe reads, SHA-256,
 * the clock, the bubblewrap script runner, the YAML library loaded on first need, and the
 * workspace opener of the host tools. Pass
 * `confirm`, `approvals` or `cache` to add them.
 */
export function nodeRuntimeDeps(
  options: { readonly sandbox?: SandboxOptions } & Partial<SkillRuntimeDeps> = {},
): SkillRuntimeDeps {
  const { sandbox, ...rest } = options;
  return {
    fs: createNodeFileSystem(),
    hash: sha256,
    now: () => new Date(),
    runner: createSandboxRunner(sandbox),
    yaml: loadYaml,
    workspaceFiles: createWorkspaceFiles,
    ...rest,
  };
}
