import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ScriptRunRequest } from '../deps.js';
import { SkillhostError } from '../errors.js';
import { interpreterPath } from './sandbox-system.js';
import type { Toolchain } from './sandbox-toolchains.js';

/** Whom a script runs as, and what that user can reach: the runner's choices when it is root. */

const NOBODY = 65534;

/** Whether uid/gid may search every folder up to `path`, and read (and write) `path` itself. */
export function reachable(path: string, uid: number, gid: number, write: boolean): boolean {
  const allowed = (folder: string, bits: number): boolean => {
    const status = statSync(folder);
    const shift = status.uid === uid ? 6 : status.gid === gid ? 3 : 0;
    return ((status.mode >> shift) & bits) === bits;
  };
  let folder = dirname(path);
  for (;;) {
    if (!allowed(folder, 1)) return false;
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return allowed(path, write ? 7 : 5);
}

/**
 * Whom a script runs as when skillhost runs as root: the owner of a granted workspace when that
 * is an ordinary user; `nobody` when there is none, or when `nobody` can use a root-owned one;
 * else (a root-owned workspace `nobody` cannot use, or an environment of the skill's
 * dependencies that `nobody` cannot reach, such as one under root's private home) root mapped
 * into the sandbox's user namespace without any capability, with the system's root-only files
 * hidden (`mappedRoot`). A workspace the chosen user cannot use is refused up front rather than
 * failing inside. `reachesEnvironment` says whether that user reaches every folder of `needs`.
 */
export function runAs(
  workspace: ScriptRunRequest['workspace'],
  needs: readonly string[] = [],
): {
  readonly user: { uid: number; gid: number } | undefined;
  readonly mappedRoot: boolean;
  readonly reachesEnvironment: boolean;
} {
  const nobody = { uid: NOBODY, gid: NOBODY };
  const reaches = (uid: number, gid: number) =>
    needs.every((path) => {
      try {
        return reachable(path, uid, gid, false);
      } catch {
        return false;
      }
    });
  const asNobody = reaches(NOBODY, NOBODY)
    ? { user: nobody, mappedRoot: false, reachesEnvironment: true }
    : { user: undefined, mappedRoot: true, reachesEnvironment: true };
  if (workspace === undefined) return asNobody;
  const status = statSync(workspace.path);
  if (status.uid === 0) {
    if (reachable(workspace.path, NOBODY, NOBODY, workspace.writable)) return asNobody;
    return { user: undefined, mappedRoot: true, reachesEnvironment: true };
  }
  const user = { uid: status.uid, gid: status.gid };
  if (!reachable(workspace.path, user.uid, user.gid, workspace.writable)) {
    throw new SkillhostError(
      workspace.writable ? 'WORKSPACE_NOT_WRITABLE' : 'SANDBOX_UNAVAILABLE',
      `Scripts run as the workspace's owner, uid ${user.uid}, which cannot ${workspace.writable ? 'write to' : 'read'} the workspace ${workspace.path}; make it accessible to that user${workspace.writable ? ', or grant it read-only' : ''}`,
    );
  }
  return { user, mappedRoot: false, reachesEnvironment: reaches(user.uid, user.gid) };
}

/** A writable workspace the script's user (this process's, not root) cannot write: refused. */
export function checkWritable(path: string): void {
  try {
    accessSync(path, constants.W_OK);
  } catch {
    throw new SkillhostError(
      'WORKSPACE_NOT_WRITABLE',
      `The workspace ${path} is granted writable, but this user cannot write to it; make it writable, or grant it read-only`,
    );
  }
}

/**
 * The toolchain as the script's user can use it: folders it cannot reach are left out, and an
 * interpreter it cannot reach gives way to the system's (with nothing of the toolchain).
 */
export function reachableToolchain(
  toolchain: Toolchain,
  user: { uid: number; gid: number },
  interpreter: ScriptRunRequest['interpreter'],
): Toolchain | undefined {
  const can = (path: string) => {
    try {
      return reachable(path, user.uid, user.gid, false);
    } catch {
      return false;
    }
  };
  let real: string;
  try {
    real = realpathSync(toolchain.interpreter);
  } catch {
    real = toolchain.interpreter;
  }
  if (
    toolchain.origin !== 'system' &&
    (!can(dirname(toolchain.interpreter)) || !can(dirname(real)))
  ) {
    const system = interpreterPath(interpreter);
    return system === undefined
      ? undefined
      : { interpreter: system, origin: 'system', binds: [], env: {}, pathPrefix: [] };
  }
  const binds = toolchain.binds.filter(can);
  return { ...toolchain, binds };
}
