import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  rmdirSync,
  type Stats,
  unlinkSync,
} from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { ScriptWorkspace } from '../deps.js';
import { SkillhostError } from '../errors.js';
import { gitCodePaths } from './sandbox-git.js';
import { isUnder } from './sandbox-system.js';

/**
 * What stays read-only (or absent) in a writable workspace: what other programs run or obey
 * later, outside any sandbox, without the review a change to the project's code gets. Version
 * control (`.git`: hooks, config; `.husky`, `.pre-commit-config.yaml`: hooks run on commit); the
 * skills, agents, rules, hooks and MCP servers of skillhost and of other agent tools (`.agents`,
 * `.skillhost`, `.claude`, `.cursor`, `.gemini`, `.codex`, `.windsurf`, `.mcp.json`, and
 * `.github` as a whole: Copilot's instructions, prompts and agents live there, and so do the CI
 * workflows, which run with the repository's secrets; a folder is protected whole because any
 * name created in it, copilot* included, would be read); editor tasks and settings (`.vscode`,
 * `.idea`); direnv's `.envrc`. Each path is relative to the workspace; `file` ones are held absent
 * by an empty file, the others by an empty folder.
 */
export const PROTECTED_WORKSPACE_PATHS: readonly {
  readonly path: string;
  readonly kind: 'file' | 'directory';
}[] = [
  { path: '.git', kind: 'directory' },
  { path: '.husky', kind: 'directory' },
  { path: '.pre-commit-config.yaml', kind: 'file' },
  { path: '.agents', kind: 'directory' },
  { path: '.skillhost', kind: 'directory' },
  { path: '.claude', kind: 'directory' },
  { path: '.cursor', kind: 'directory' },
  { path: '.gemini', kind: 'directory' },
  { path: '.codex', kind: 'directory' },
  { path: '.windsurf', kind: 'directory' },
  { path: '.mcp.json', kind: 'file' },
  { path: '.github', kind: 'directory' },
  { path: '.vscode', kind: 'directory' },
  { path: '.idea', kind: 'directory' },
  { path: '.envrc', kind: 'file' },
];

/** What a path in the workspace is, as far as protecting it goes. */
export interface PathFacts {
  readonly kind: 'missing' | 'directory' | 'file' | 'symlink' | 'other';
  readonly links: number;
}

/** How a writable workspace's protected paths are held, as bind mounts over the workspace. */
export interface ProtectionPlan {
  /** Folders on the way to a protected path, bound onto themselves (still writable) so that no one can rename them away. */
  readonly pinned: readonly string[];
  /** Existing protected paths, bound read-only. */
  readonly readOnly: readonly string[];
  /** Missing protected paths (or their first missing folder), held absent by an empty read-only placeholder. */
  readonly absent: readonly { readonly path: string; readonly kind: 'file' | 'directory' }[];
}

const refuse = (message: string) => new SkillhostError('WORKSPACE_REFUSED', message);

/**
 * A protected path as given (`--protect`, `workspace.protect`): relative to the workspace, or
 * absolute inside it. Returns its clean relative POSIX form; throws WORKSPACE_REFUSED for one
 * that leaves the workspace or names it whole.
 */
export function normaliseProtectedPath(given: string, workspace: string): string {
  const inside = isAbsolute(given) ? relative(workspace, given) : given;
  const parts: string[] = [];
  for (const part of inside.split(/[/\\]+/)) {
    if (part === '' || part === '.') continue;
    if (part === '..' || part.includes('\u0000'))
      throw refuse(`The protected path ${JSON.stringify(given)} leaves the workspace ${workspace}`);
    parts.push(part);
  }
  if (parts.length === 0)
    throw refuse(
      `The protected path ${JSON.stringify(given)} is the whole workspace: grant it read-only instead`,
    );
  return parts.join('/');
}

/**
 * Decides how to hold each protected path (pure: `look` says what each path is). An existing
 * path is bound read-only: a mount point cannot be written through, removed, replaced or renamed.
 * A missing one is held absent by a read-only placeholder at its first missing folder, since a
 * mount point is the only name a script cannot create. Existing folders on the way are bound onto
 * themselves, so that renaming one (`mv .github x`) cannot carry the protection away. A symbolic
 * link on the way, or a protected file with other hard links (writable under its other name),
 * cannot be held: refused.
 */
export function planProtection(
  protectedPaths: readonly { readonly path: string; readonly kind: 'file' | 'directory' }[],
  look: (path: string) => PathFacts,
): ProtectionPlan {
  const pinned = new Set<string>();
  const readOnly = new Set<string>();
  const absent = new Map<string, 'file' | 'directory'>();
  // Shallow first, so that a path inside one already held needs nothing more.
  const sorted = [...protectedPaths].sort(
    (a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1),
  );
  const held = (path: string) =>
    [...readOnly, ...absent.keys()].some((done) => path === done || path.startsWith(`${done}/`));
  for (const { path, kind } of sorted) {
    if (held(path)) continue;
    const parts = path.split('/');
    for (let index = 1; index <= parts.length; index += 1) {
      const prefix = parts.slice(0, index).join('/');
      const last = index === parts.length;
      const facts = look(prefix);
      if (facts.kind === 'symlink')
        throw refuse(
          `${prefix} in the writable workspace is a symbolic link: a script could replace it, and what it protects with it. Replace the link with what it points to, or grant the workspace read-only`,
        );
      if (facts.kind === 'missing') {
        absent.set(prefix, last ? kind : 'directory');
        break;
      }
      if (last || facts.kind !== 'directory') {
        // A file where a folder is expected is held too: removing it would make room for the path.
        if (facts.kind === 'file' && facts.links > 1)
          throw refuse(
            `${prefix} in the writable workspace has other hard links: a script could change it under another name. Make it a file of its own, or grant the workspace read-only`,
          );
        readOnly.add(prefix);
        break;
      }
      pinned.add(prefix);
    }
  }
  return {
    pinned: [...pinned].filter((path) => !held(path)).sort(),
    readOnly: [...readOnly].sort(),
    absent: [...absent]
      .map(([path, kind]) => ({ path, kind }))
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
  };
}

function factsOf(status: Stats | undefined): PathFacts {
  if (status === undefined) return { kind: 'missing', links: 0 };
  return {
    kind: status.isSymbolicLink()
      ? 'symlink'
      : status.isDirectory()
        ? 'directory'
        : status.isFile()
          ? 'file'
          : 'other',
    links: status.nlink,
  };
}

function lstatOrMissing(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw refuse(
      `${path} in the writable workspace cannot be examined: ${(error as Error).message}`,
    );
  }
}

/** A writable workspace made ready: its bind-mount arguments, and the placeholders to remove. */
export interface ProtectedWorkspace {
  /** bubblewrap arguments that follow the workspace's own bind. */
  readonly arguments: readonly string[];
  /** What was protected, and how (for the record). */
  readonly plan: ProtectionPlan;
  /** Removes the placeholders made for the run (only those, and only while they are empty). */
  cleanup(): void;
}

/**
 * Checks a writable workspace and makes its protection: refuses the home folder (or one that
 * holds it: its shell and tool start-up files are not protected paths) and a workspace inside a
 * protected folder; adds to the protected paths the hooks folder and included config files git's
 * configuration names in the workspace; creates the placeholders of missing protected paths;
 * returns the bubblewrap arguments that hold every protected path.
 */
export function protectWorkspace(
  workspace: ScriptWorkspace,
  homeDir: string | undefined,
): ProtectedWorkspace {
  const root = realpathSync(workspace.path);
  if (homeDir !== undefined) {
    let home: string;
    try {
      home = realpathSync(homeDir);
    } catch {
      home = homeDir;
    }
    if (isUnder(home, root))
      throw refuse(
        `The workspace ${workspace.path} is or holds the home folder ${homeDir}, whose start-up files a script could change; grant a project folder, or grant it read-only`,
      );
  }
  if (root === sep) throw refuse('The whole file system cannot be a writable workspace');
  const names = new Set(PROTECTED_WORKSPACE_PATHS.map((entry) => entry.path));
  const inside = root.split(sep).find((part) => names.has(part));
  if (inside !== undefined)
    throw refuse(
      `The workspace ${workspace.path} lies inside a protected folder (${inside}); grant the project folder, or grant it read-only`,
    );
  const paths = [
    ...PROTECTED_WORKSPACE_PATHS,
    // Where git looks for hooks and more config, when that is in the workspace.
    ...gitCodePaths(root, homeDir).map((path) => ({ path, kind: 'directory' as const })),
    ...(workspace.protect ?? []).map((given) => ({
      path: normaliseProtectedPath(given, root),
      kind: 'directory' as const,
    })),
  ];
  const plan = planProtection(paths, (path) => factsOf(lstatOrMissing(join(root, path))));
  const made: { path: string; kind: 'file' | 'directory'; device: number; inode: number }[] = [];
  const cleanup = () => {
    for (const placeholder of made.splice(0).reverse()) {
      try {
        const status = lstatSync(placeholder.path);
        if (status.dev !== placeholder.device || status.ino !== placeholder.inode) continue;
        if (placeholder.kind === 'directory') rmdirSync(placeholder.path);
        else if (status.size === 0) unlinkSync(placeholder.path);
      } catch {
        // gone already, or someone put something in it: left as it is
      }
    }
  };
  try {
    for (const { path, kind } of plan.absent) {
      const full = join(root, path);
      // Exclusive creation: if the path has appeared since, it is refused rather than trusted.
      if (kind === 'directory') mkdirSync(full, { mode: 0o555 });
      else closeSync(openSync(full, 'wx', 0o444));
      const status = lstatSync(full);
      made.push({ path: full, kind, device: status.dev, inode: status.ino });
    }
  } catch (error) {
    cleanup();
    throw refuse(
      `A placeholder for a protected path cannot be made in the workspace ${workspace.path}: ${(error as Error).message}`,
    );
  }
  const mounts: string[] = [];
  for (const path of plan.pinned) mounts.push('--bind', join(root, path), join(root, path));
  for (const path of [...plan.readOnly, ...plan.absent.map((entry) => entry.path)].sort())
    mounts.push('--ro-bind', join(root, path), join(root, path));
  return { arguments: mounts, plan, cleanup };
}
