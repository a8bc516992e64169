import type { SkillFileSystem } from '../index.js';

export interface CliStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliIO {
  readonly stdout: CliStream;
  readonly stderr: CliStream;
}

/** What the CLI needs from the outside world; the bin passes the real ones. */
export interface CliDeps {
  readonly fs: SkillFileSystem;
  /** The working directory that relative paths are resolved against. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Resolves `path` against `base` (platform path rules). */
  readonly resolvePath: (base: string, path: string) => string;
}
