import type { CacheStore, ContentHasher, SkillFileSystem } from '../node/index.js';

export interface CliStream {
  /** Writes text; `false` means the stream is full and `drain` will follow (Node streams). */
  write(text: string): unknown;
  once?(event: 'drain', listener: () => void): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Writes and, when the stream says it is full, waits for it to drain: output never piles up in memory. */
export async function writeWithBackpressure(stream: CliStream, text: string): Promise<void> {
  if (stream.write(text) === false && stream.once !== undefined) {
    await new Promise<void>((resolve) => stream.once?.('drain', resolve));
  }
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
