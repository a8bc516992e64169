import type { CacheStore, ContentHasher, SkillFileSystem } from '../node/index.js';

export interface CliStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliIO {
  readonly stdout: CliStream;
  readonly stderr: CliStream;
}

/** The user configuration the CLI keeps (trusted project folders). */
export interface CliUserConfig {
  readonly trustedProjects: readonly string[];
}

/** What the CLI needs from the outside world; the bin passes the real ones. */
export interface CliDeps {
  readonly fs: SkillFileSystem;
  /** The working directory that relative paths are resolved against. */
  readonly cwd: string;
  /** The user's home directory. */
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Resolves `path` against `base` (platform path rules). */
  readonly resolvePath: (base: string, path: string) => string;
  readonly hash: ContentHasher;
  /** The index cache kept in a directory. */
  readonly cacheStore: (directory: string) => CacheStore;
  readonly readConfig: (path: string) => CliUserConfig;
  readonly writeConfig: (path: string, config: CliUserConfig) => void;
}
