import { randomUUID } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readUserConfig, writeUserConfig } from '../../src/cli/host/config.js';
import { readTextFile, writeTextFile } from '../../src/cli/host/files.js';
import { type CliDeps, cli } from '../../src/cli/index.js';
import type { ScriptRunner, SkillFileSystem } from '../../src/deps.js';
import { openJsonlAuditSink, readAuditLogFile } from '../../src/node/audit-sink.js';
import { createDirectoryCacheStore } from '../../src/node/cache-store.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { sha256 } from '../../src/node/hash.js';
import { createSandboxRunner } from '../../src/node/sandbox.js';
import { createSessionStore, readPrivateFile } from '../../src/node/session-store.js';
import { createWorkspaceFiles } from '../../src/node/workspace-files.js';
import { shellRunner } from './shell.js';
import { tempDir } from './temp.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliRunOptions {
  readonly cwd?: string;
  /** Environment; SKILLHOST_HOME defaults to a fresh temporary folder. */
  readonly env?: Record<string, string>;
  readonly home?: string;
  readonly tty?: boolean;
  /** Lines typed at an interactive prompt (stdin is a TTY when given). */
  readonly input?: readonly string[];
  /**
   * Where scripts go: a runner of the test's own, or `bubblewrap` for the real sandbox runner
   * (the sandbox suite only). Default: the scripted runner that plays the fixtures' shell scripts.
   */
  readonly runner?: ScriptRunner | 'bubblewrap';
  /** The file system (default the real one), e.g. wrapped to count the work done. */
  readonly fs?: SkillFileSystem;
  /** Piped standard input (not a terminal), e.g. a task for agent run. */
  readonly stdinText?: string;
  /** Ctrl-C: the test calls the listener it is given. */
  readonly interrupt?: (listener: () => void) => () => void;
  /** The browser opener of `ui --open` (default: none, as on a host without one). */
  readonly openUrl?: (url: string) => void | Promise<void>;
}

/**
 * Runs the CLI function in-process with captured output, the real file system, an isolated home
 * and, unless told otherwise, the scripted runner (no process is started for a script).
 */
export async function runCli(
  argv: readonly string[],
  options: CliRunOptions = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const home = options.home ?? tempDir('skillhost-home-');
  const env = { SKILLHOST_HOME: join(home, '.skillhost'), ...options.env };
  const typed = [...(options.input ?? [])];
  const code = await cli(
    argv,
    {
      stdout: { write: (text: string) => (stdout += text), isTTY: options.tty ?? false },
      stderr: { write: (text: string) => (stderr += text), isTTY: false },
      ...(options.stdinText !== undefined
        ? {
            stdin: {
              isTTY: false,
              readLine: async () => undefined,
              readAll: async () => options.stdinText as string,
            },
          }
        : options.input === undefined
          ? {}
          : {
              stdin: {
                isTTY: true,
                readLine: async () => typed.shift(),
              },
            }),
    },
    testCliDeps(home, env, options),
  );
  return { code, stdout, stderr };
}

/** The deps runCli gives the CLI: the real file system and sessions, an isolated home, the scripted runner. */
export function testCliDeps(
  home: string,
  env: Record<string, string>,
  options: CliRunOptions = {},
): CliDeps {
  return {
    fs: options.fs ?? createNodeFileSystem(),
    cwd: options.cwd ?? process.cwd(),
    homeDir: home,
    env,
    resolvePath: (base, path) => resolve(base, path),
    hash: sha256,
    cacheStore: createDirectoryCacheStore,
    readConfig: readUserConfig,
    writeConfig: writeUserConfig,
    runner:
      options.runner === 'bubblewrap'
        ? createSandboxRunner({ homeDir: home })
        : (options.runner ?? shellRunner()),
    auditSink: (path, options) => openJsonlAuditSink(path, options),
    readText: readAuditLogFile,
    removeFile: (path) => unlinkSync(path),
    now: () => new Date(),
    newSessionId: () => randomUUID(),
    sessions: createSessionStore,
    readPrivateFile,
    platform: 'linux',
    readTextFile,
    writeTextFile,
    selfCommand: () => ({
      command: '/opt/node/bin/node',
      args: ['/opt/skillhost/dist/cli/bin.js'],
    }),
    workspaceFiles: createWorkspaceFiles,
    ...(options.interrupt === undefined ? {} : { onInterrupt: options.interrupt }),
    ...(options.openUrl === undefined ? {} : { openUrl: options.openUrl }),
  };
}
