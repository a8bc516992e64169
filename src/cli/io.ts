import type {
  AuditSink,
  CacheStore,
  ContentHasher,
  JsonlSinkOptions,
  ScriptRunner,
  ScriptWorkspace,
  SkillFileSystem,
  WorkspaceFiles,
} from '../node/index.js';

export interface CliStream {
  /** Writes text; `false` means the stream is full and `drain` will follow (Node streams). */
  write(text: string): unknown;
  once?(event: 'drain', listener: () => void): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
}

/** Writes and, when the stream says it is full, waits for it to drain: output never piles up in memory. */
export async function writeWithBackpressure(stream: CliStream, text: string): Promise<void> {
  if (stream.write(text) === false && stream.once !== undefined) {
    await new Promise<void>((resolve) => stream.once?.('drain', resolve));
  }
}

export interface CliInput {
  readonly isTTY?: boolean;
  /** Reads one line typed by the user (undefined at end of input, or once `signal` aborts). */
  readLine(options?: { readonly signal?: AbortSignal }): Promise<string | undefined>;
  /** Reads the whole input (a task piped in), at most `maxBytes`. */
  readAll?(maxBytes: number): Promise<string>;
}

/** Agent sessions as JSON Lines files (`$SKILLHOST_HOME/sessions`). */
export interface SessionFiles {
  readonly directory: string;
  append(id: string, lines: readonly string[]): void;
  read(id: string): string | undefined;
  list(): Array<{ readonly id: string; readonly size: number; readonly modified: Date }>;
}

export interface CliIO {
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  /** The terminal's input, for confirmations; absent or not a TTY means non-interactive. */
  readonly stdin?: CliInput;
}

/** An approval given with "always", bound to source, skill, content hash and script or activation. */
export interface StoredApproval {
  readonly key: string;
  /** What was approved: a script run (absent, for older files) or a skill's activation. */
  readonly kind?: 'activation' | 'network';
  readonly skill: string;
  readonly script: string;
  readonly contentHash: string;
}

/**
 * A skill installed from a source outside the user's control that the user trusts
 * (`skillhost trust --skill NAME`): bound to its folder and to the digest of the files the
 * lockfile records, so that an update has to be trusted again.
 */
export interface TrustedSkill {
  readonly skill: string;
  readonly directory: string;
  readonly contentHash: string;
}

/**
 * What skillhost keeps for a user: the project folders the user trusts, lasting approvals, the
 * skills switched off, and the installed skills trusted.
 */
export interface UserConfig {
  readonly trustedProjects: readonly string[];
  readonly approvals?: readonly StoredApproval[];
  /** Skill names never offered (`skillhost disable NAME`). */
  readonly disabledSkills?: readonly string[];
  readonly trustedSkills?: readonly TrustedSkill[];
  /** Ids of standard skill folders not to search (`skillhost list --sources` shows them). */
  readonly disabledSources?: readonly string[];
  /** Skills the catalog keeps visible first under a budget (after trust). */
  readonly pinnedSkills?: readonly string[];
  /** Audit log rotation: the size a log may reach, and how many rotated logs are kept. */
  readonly auditLog?: { readonly maxBytes?: number; readonly keep?: number };
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
  readonly readConfig: (path: string) => UserConfig;
  readonly writeConfig: (path: string, config: UserConfig) => void;
  /** The script runner (bubblewrap). */
  readonly runner: ScriptRunner;
  /** Opens the JSON Lines audit log for appending (rotated when `options.rotate` is given). */
  readonly auditSink: (path: string, options?: JsonlSinkOptions) => AuditSink & { close(): void };
  /** Reads a text file (the audit log); empty when it does not exist. */
  readonly readText: (path: string) => string;
  /** Removes a file (a rotated audit log `audit prune` lets go). */
  readonly removeFile?: (path: string) => void;
  readonly now: () => Date;
  readonly newSessionId: () => string;
  /** Agent sessions kept in a folder. */
  readonly sessions?: (directory: string) => SessionFiles;
  /** Reads a file of secrets only when no one but the user can read it (undefined: none). */
  readonly readPrivateFile?: (path: string) => string | undefined;
  /** Opens a workspace for the host tools of agent runs and chats. */
  readonly workspaceFiles?: (workspace: ScriptWorkspace) => WorkspaceFiles;
  /**
   * Calls `listener` on Ctrl-C (the first; a second leaves at once, exit 130), or with `every`
   * on each Ctrl-C (the caller decides when to leave); returns the unsubscribe.
   */
  readonly onInterrupt?: (
    listener: () => void,
    options?: { readonly every?: boolean },
  ) => () => void;
  /** The operating system (`process.platform`), for where clients keep their settings. */
  readonly platform?: string;
  /** Reads a text file; undefined when there is none (another client's configuration). */
  readonly readTextFile?: (path: string) => string | undefined;
  /** Writes a text file atomically, through a link, keeping its mode (`mode` for a new one). */
  readonly writeTextFile?: (path: string, text: string, mode: number) => void;
  /**
   * Opens an address in the user's browser (`skillhost ui --open`); rejects (or throws) when the
   * system's opener could not be started.
   */
  readonly openUrl?: (url: string) => void | Promise<void>;
  /** How to start this installation's CLI: a command and the arguments before the CLI's own. */
  readonly selfCommand?: () => { readonly command: string; readonly args: readonly string[] };
}
