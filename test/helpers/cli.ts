import { resolve } from 'node:path';
import { cli } from '../../src/cli/index.js';
import { createNodeFileSystem } from '../../src/node/fs.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI function in-process with captured output and the real file system. */
export async function runCli(
  argv: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; tty?: boolean } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await cli(
    argv,
    {
      stdout: { write: (text: string) => (stdout += text), isTTY: options.tty ?? false },
      stderr: { write: (text: string) => (stderr += text), isTTY: false },
    },
    {
      fs: createNodeFileSystem(),
      cwd: options.cwd ?? process.cwd(),
      env: options.env ?? {},
      resolvePath: (base, path) => resolve(base, path),
    },
  );
  return { code, stdout, stderr };
}
