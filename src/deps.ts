/**
 * The seams through which the library touches the outside world. The core never imports
 * `node:*`: it receives these, and `skillhost/node` provides real implementations.
 */

export type EntryKind = 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'device' | 'other';

export interface DirectoryEntry {
  readonly name: string;
  /** The kind of the entry itself (a symbolic link is reported as `symlink`). */
  readonly kind: EntryKind;
}

export interface FileStatus {
  readonly kind: EntryKind;
  readonly size: number;
  readonly mtimeMs: number;
  /** Inode change time: moves on any change, and cannot be set back by a program. */
  readonly ctimeMs: number;
  readonly device: number;
  readonly inode: number;
  readonly links: number;
}

export type ListProblem = 'missing' | 'not-directory' | 'unreadable';

export type ListResult =
  | { readonly ok: true; readonly entries: readonly DirectoryEntry[] }
  | { readonly ok: false; readonly problem: ListProblem; readonly message: string };

export type ReadProblem =
  | 'missing'
  | 'not-regular'
  | 'symlink-escape'
  | 'symlink-broken'
  | 'too-large'
  | 'unreadable';

export type ReadResult =
  | {
      readonly ok: true;
      /** The bytes read. They may live in a buffer the next read reuses: copy them to keep them. */
      readonly bytes: Uint8Array;

      readonly status: FileStatus;
      /** True when only the first `maxBytes` were read because `allowPartial` was set. */
      readonly partial: boolean;
    }
  | {
      readonly ok: false;
      readonly problem: ReadProblem;
      /** A message about the file; never holds file content. */
      readonly message: string;
      readonly kind?: EntryKind;
    };

export interface ReadWithinOptions {
  /** Most bytes to read; a larger file is refused as `too-large` unless `allowPartial`. */
  readonly maxBytes: number;
  /** Read the first `maxBytes` bytes of a larger file instead of refusing it. */
  readonly allowPartial?: boolean;
  /** The entry's kind if a directory listing already told it (saves opening a FIFO or device). */
  readonly knownKind?: EntryKind;
}

/**
 * File access for skills. `readFileWithin` is the one safe routine for reading skill files:
 * it opens, then verifies what it opened (a regular file inside `root`), and caps the bytes
 * while reading.
 */
export interface SkillFileSystem {
  listDirectory(path: string): ListResult;
  /** Status of a path; `follow` decides whether a final symbolic link is followed. */
  status(path: string, follow: boolean): FileStatus | undefined;
  /**
   * Status of many paths (optional): an implementation may spread a large batch over threads.
   * Results are in the order of `paths`.
   */
  statusMany?(paths: readonly string[], follow: boolean): Array<FileStatus | undefined>;
  /**
   * Whether a path names an entry, a symbolic link counting whatever it leads to: the answer
   * `status(path, false) !== undefined` gives, which is what is asked without it (optional; an
   * implementation may answer without making a status).
   */
  exists?(path: string): boolean;
  /** The canonical path with every symbolic link resolved, or undefined when it cannot be resolved. */
  realPath(path: string): string | undefined;
  /** Reads `relativePath` (POSIX, already checked to stay below root) from inside `root`. */
  readFileWithin(root: string, relativePath: string, options: ReadWithinOptions): ReadResult;
  /**
   * A hint (optional): `readFileWithin(joinPath(directory, entry.name), fileName, options)` is
   * about to be asked for each of `entries` (of `directory`), in that order (some may be passed
   * over). An implementation may read them ahead, on another thread; each read still gives what
   * it would have given unasked. The function returned ends the hint; undefined when nothing is
   * read ahead.
   */
  readAhead?(
    directory: string,
    entries: readonly DirectoryEntry[],
    fileName: string,
    options: ReadWithinOptions,
  ): (() => void) | undefined;
}

/** A cryptographic digest of bytes (the node entry uses SHA-256), as lower-case hex. */
export type ContentHasher = (bytes: Uint8Array) => string;

/**
 * A place to keep derived data between runs (the index cache). Safe to empty at any time:
 * whatever it returns is checked against the files before use.
 */
export interface CacheStore {
  load(key: string): string | undefined;
  /**
   * The entry of `key` line by line, read a piece at a time, so that a large entry (the index of
   * fifty thousand skills) never becomes one string (optional; `load` is used without it).
   * Undefined when there is no such entry. Iterate it once: the entry is closed when the
   * iteration ends or stops, and a read that fails midway throws.
   */
  loadLines?(key: string): Iterable<string> | undefined;
  save(key: string, text: string): void;
  /**
   * Saves the entry of `key` from its lines (joined by line feeds), written as they come, so that
   * a large entry is never one string (optional; `save` is used without it).
   */
  saveLines?(key: string, lines: Iterable<string>): void;
  /** Where the entry of `key` is kept (a file's path), for a message about it (optional). */
  locate?(key: string): string | undefined;
}

export interface WatchOptions {
  /** How many directory levels below each root are watched. */
  readonly depth: number;
  readonly followSymlinks: boolean;
}

export interface WatchHandle {
  close(): Promise<void>;
}

/**
 * Watches directory trees and calls `onChange` with a changed path (added, changed or removed
 * file or folder). The node entry provides one built on chokidar.
 */
export type DirectoryWatcher = (
  roots: readonly string[],
  onChange: (path: string) => void,
  options: WatchOptions,
) => WatchHandle;

/** Interpreters a skill script may use. */
export type ScriptInterpreter = 'sh' | 'bash' | 'python3' | 'node';

export interface ScriptLimits {
  /** Wall-clock limit; on expiry every process of the run is killed. */
  readonly timeoutMs: number;
  readonly maxProcesses: number;
  /**
   * Memory each process may really use (its data segment: heap and private mappings, not the
   * address space it only reserves). Past it allocations fail and the run reports
   * `resourceLimit: 'memory'`.
   */
  readonly maxMemoryBytes: number;
  /** Largest file the script may write. */
  readonly maxFileBytes: number;
  /**
   * Most bytes the script may write in all: to /tmp, /work, its home and /dev/shm (memory) and
   * to a writable workspace, together. Past it the run is stopped (`resourceLimit: 'write'`).
   */
  readonly maxWriteBytes: number;
  readonly maxOpenFiles: number;
  /** Output kept per stream: this many bytes from the start and as many from the end. */
  readonly maxCapturedBytes: number;
  /** Output beyond which the run is stopped. */
  readonly maxOutputBytes: number;
}

/** A folder a script sees as its working directory. */
export interface ScriptWorkspace {
  readonly path: string;
  /** Whether the script may write to it (default: read-only). */
  readonly writable: boolean;
  /**
   * More paths that stay read-only (or absent) in a writable workspace, relative to it (or
   * absolute inside it), besides the built-in ones (`.git`, agent and editor folders, `.envrc`).
   */
  readonly protect?: readonly string[];
  /**
   * Files that commonly hold secrets stay hidden in the workspace (`.env`, `.env.*`, `*.pem`,
   * `*.key`, `id_*` keys, `.npmrc`, `.pypirc`, `.netrc`, `.git-credentials`, `.git/config`):
   * these paths (relative to it, or absolute inside it) are shown all the same.
   */
  readonly expose?: readonly string[];
  /**
   * Where what a script writes in a read-only workspace's working directory is kept: the runner
   * makes a run folder in it for each run (the CLI's default: `.skillhost/runs` of the
   * project). Without it, the working directory of a read-only workspace cannot be written.
   */
  readonly outputs?: string;
}

/** A file a script wrote under its working directory, and where it now is on the host. */
export interface WrittenFile {
  /** Its path relative to the working directory, as the script named it. */
  readonly path: string;
  readonly bytes: number;
  /** Where it is now: in place in a writable workspace, else in the run folder. */
  readonly location: string;
}

/** What a run wrote under its working directory (the workspace's). */
export interface WrittenFiles {
  /** How many regular files; `files` names the first of them. */
  readonly count: number;
  readonly files: readonly WrittenFile[];
  /** The run folder that keeps them (a read-only workspace), if one was made and kept. */
  readonly folder?: string;
  /** Links and special files the script made there, removed after the run. */
  readonly removed?: readonly string[];
}

export interface ScriptRunRequest {
  /** The skill directory, staged read-only for the run. */
  readonly skillDirectory: string;
  /** The script's path relative to the skill directory. */
  readonly scriptPath: string;
  /** The exact bytes that were checked and hashed: these are what runs. */
  readonly scriptBytes: Uint8Array;
  readonly interpreter: ScriptInterpreter;
  readonly args: readonly string[];
  readonly limits: ScriptLimits;
  /** A folder the script may see (read-only unless writable), as its working directory. */
  readonly workspace?: ScriptWorkspace;
  /** Extra environment variables (the environment is otherwise built from scratch). */
  readonly env?: Readonly<Record<string, string>>;
  /** Run without an OS sandbox when none is available (recorded as such). */
  readonly allowUnsandboxed?: boolean;
  /**
   * Give the script the host's network (default: none, its own network namespace with only a
   * loopback that leads nowhere). The runtime sets it only after the user confirmed it.
   */
  readonly network?: boolean;
  /**
   * Whether the skill's source is trusted. Staging leaves out an untrusted skill's files whose
   * links, owner or permissions are in doubt; a trusted skill's keep their owner and mode.
   * Default false.
   */
  readonly trusted?: boolean;
  /**
   * The folder of environments that `skillhost setup` prepares (`$SKILLHOST_HOME/envs`): a skill
   * that ships `scripts/requirements.txt` or `scripts/package.json` runs with the one made for
   * its exact content, bound read-only. Without it, no such environment is looked for.
   */
  readonly environments?: string;
}

/**
 * The environment `skillhost setup` made for a skill's declared dependencies, as a run found it:
 * `used` (made for this exact content, bound read-only), `stale` (made for an earlier content
 * of the skill: not used), `missing` (never made), `unreachable` (made, but the user the script
 * runs as cannot reach it).
 */
export interface SkillEnvironmentStatus {
  readonly status: 'used' | 'stale' | 'missing' | 'unreachable';
  /** SHA-256 of the skill's whole content, the environment's key. */
  readonly contentHash: string;
  /** The environment's folder (when one was made for this content). */
  readonly folder?: string;
  /** What the skill declares: `python` (scripts/requirements.txt), `node` (scripts/package.json). */
  readonly kinds: readonly ('python' | 'node')[];
}

/**
 * How a run's memory is limited: `data-segment`, each process's data segment (what it really
 * allocates, not the address space it reserves), and why no cgroup limit is used instead.
 */
export interface MemoryLimitMethod {
  readonly method: 'data-segment';
  readonly reason: string;
}

/**
 * Why a file of the skill is not in the sandbox's copy: `hard-link` (other hard links: it may be
 * a file from anywhere), `other-owner` (not the skill folder's owner), `unreadable` (the
 * script's user could not read it where it is), `symlink`, `special` (FIFO, socket, device),
 * `too-deep`, `excluded` (`.git` and `node_modules`).
 */
export type NotStagedReason =
  | 'hard-link'
  | 'other-owner'
  | 'unreadable'
  | 'symlink'
  | 'special'
  | 'too-deep'
  | 'excluded';

export interface NotStagedFile {
  /** The path in the skill (a folder stands for everything in it). */
  readonly path: string;
  readonly reason: NotStagedReason;
}

/** Files of the skill left out of a run: how many, and the first of them. */
export interface NotStagedFiles {
  readonly count: number;
  readonly files: readonly NotStagedFile[];
}

export interface CapturedOutput {
  /** The start of the output. */
  readonly head: string;
  /** The end of the output (empty when all of it is in `head`). */
  readonly tail: string;
  readonly totalBytes: number;
  /** Bytes between head and tail that were counted, not kept. */
  readonly omittedBytes: number;
}

export interface ScriptRunResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  /** True when the run was stopped for writing more than `maxOutputBytes`. */
  readonly outputLimited: boolean;
  readonly durationMs: number;
  readonly stdout: CapturedOutput;
  readonly stderr: CapturedOutput;
  /** How the script was isolated: `bubblewrap`, or `none` when explicitly allowed. */
  readonly sandbox: 'bubblewrap' | 'none';
  /** Files of the skill the script did not get, and why (absent when none were left out). */
  readonly notStaged?: NotStagedFiles;
  /**
   * The resource limit that stopped the run, besides the timeout and the output cap: `write`
   * when the script wrote more than `maxWriteBytes` in all (it was killed, or refused the rest);
   * `memory` when it failed for want of memory past `maxMemoryBytes`.
   */
  readonly resourceLimit?: 'write' | 'memory';
  /** Bytes the script wrote, as the write budget counts them (when the runner counts them). */
  readonly writtenBytes?: number;
  /** Files written under the working directory, kept and listed (when a workspace was granted). */
  readonly written?: WrittenFiles;
  /**
   * What a failure in the error output may be owed to the sandbox, and how to grant it: a hidden
   * secret file, a host path outside what the sandbox shows, a read-only workspace.
   */
  readonly hints?: readonly string[];
  /** The environment of the skill's declared dependencies (for a skill that declares some). */
  readonly dependencies?: SkillEnvironmentStatus;
}

/** What a script would see, as the runner's own plan for a request says (nothing is run). */
export interface SandboxExplanation {
  readonly sandbox: 'bubblewrap' | 'none';
  /** The interpreter, as the sandbox runs it. */
  readonly interpreter: string;
  readonly workingDirectory: string;
  /** Every mount, in order: `ro` (read-only bind), `rw` (writable bind), `tmpfs`, `hidden` (an unreadable placeholder), or another kind bubblewrap makes (`proc`, `dev`, `symlink`). */
  readonly mounts: readonly {
    readonly kind: string;
    readonly path: string;
    readonly source?: string;
  }[];
  readonly environment: Readonly<Record<string, string>>;
  /** The kernel's per-process limits, as prlimit takes them (e.g. `--data=2147483648`). */
  readonly limits: readonly string[];
  readonly network: boolean;
  /** How memory is limited: the method, the bytes each process may use, and why this method. */
  readonly memory?: MemoryLimitMethod & { readonly bytes: number };
  /** The environment of the skill's declared dependencies (for a skill that declares some). */
  readonly dependencies?: SkillEnvironmentStatus;
  /** The full command line (bubblewrap's arguments). */
  readonly command: readonly string[];
}

/**
 * A shell command to run in the sandbox with the workspace (the `workspace_bash` tool): bash reads
 * `command` as a script; the sandbox is a script run's (no network, the workspace as granted, its
 * secret files hidden, the limits), without a skill.
 */
export interface CommandRunRequest {
  readonly command: string;
  readonly limits: ScriptLimits;
  /** The workspace, the command's working directory (read-only unless writable). */
  readonly workspace?: ScriptWorkspace;
  /** Extra environment variables (the environment is otherwise built from scratch). */
  readonly env?: Readonly<Record<string, string>>;
  /** Run without an OS sandbox when none is available (recorded as such). */
  readonly allowUnsandboxed?: boolean;
}

/** Runs skill scripts in isolation (the node entry's runner uses bubblewrap). */
export interface ScriptRunner {
  run(request: ScriptRunRequest): Promise<ScriptRunResult>;
  /** What a request would see, from the same plan `run` follows, without running it (optional). */
  explain?(request: ScriptRunRequest): Promise<SandboxExplanation>;
  /** Runs a shell command in the same sandbox, with the workspace (optional: the bash tool needs it). */
  runCommand?(request: CommandRunRequest): Promise<ScriptRunResult>;
  /** Whether an OS sandbox is available, and if not why. */
  sandbox(): { readonly available: boolean; readonly reason: string };
}
