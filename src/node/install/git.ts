import { mkdirSync } from 'node:fs';
import type { InstallSource } from '../../core.js';
import { SkillhostError } from '../../errors.js';
import { isFullCommit } from '../../internal.js';
import { childProcess, findExecutable, SYSTEM_PATH } from '../sandbox-system.js';

type GitSource = Extract<InstallSource, { type: 'git' }>;

export interface GitOptions {
  /** The caller's environment: only proxy and SSH agent variables are passed on to git. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Most time one git command may take (default 5 minutes). */
  readonly timeoutMs?: number;
  /** The git program (default: `git` from the system folders). */
  readonly git?: string;
}

/** Variables git may see from the caller's environment: how to reach the network, nothing else. */
const PASSED_ON = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'ALL_PROXY',
  'all_proxy',
  'NO_PROXY',
  'no_proxy',
  'SSH_AUTH_SOCK',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'GIT_SSL_CAINFO',
  'HOME',
];

/**
 * Settings on every git command: no hooks, no file-system monitor, no credential helper, no
 * transport that runs programs, file URLs only where the user gave one (never from a
 * submodule), objects checked as they arrive, bytes exactly as committed.
 */
export const GIT_SAFETY = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'credential.helper=',
  '-c',
  'core.askPass=',
  '-c',
  'protocol.ext.allow=never',
  '-c',
  'protocol.fd.allow=never',
  '-c',
  'protocol.file.allow=user',
  '-c',
  'submodule.recurse=false',
  '-c',
  'transfer.fsckObjects=true',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.symlinks=true',
  '-c',
  'advice.detachedHead=false',
  '-c',
  'init.defaultBranch=main',
] as const;

/**
 * Git's environment, built from scratch: no prompt for a password (GIT_TERMINAL_PROMPT=0,
 * ssh in batch mode), neither the system's nor the user's git configuration (their hooks,
 * helpers and URL rewrites), programs from the system folders only, and no GIT_DIR or other
 * variable of a repository skillhost may be running inside.
 */
export function gitEnvironment(env: GitOptions['env']): Record<string, string> {
  const result: Record<string, string> = {
    PATH: SYSTEM_PATH,
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
  };
  for (const name of PASSED_ON) {
    const value = env[name];
    if (value !== undefined && value !== '') result[name] = value;
  }
  return result;
}

interface GitRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const MAX_OUTPUT = 4 * 1024 * 1024;

/** Runs git in its own process group, killed with the group at the timeout. */
function runGit(args: readonly string[], options: GitOptions, cwd?: string): Promise<GitRun> {
  const git = options.git ?? findExecutable('git');
  if (git === undefined)
    return Promise.reject(
      new SkillhostError('SOURCE_FETCH_FAILED', 'git is not installed (apt-get install git)'),
    );
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn(git, [...GIT_SAFETY, ...args], {
      cwd: cwd ?? '/',
      env: gitEnvironment(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 65_536) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
      stderr += `\n(stopped after ${options.timeoutMs ?? 300_000} ms)`;
    }, options.timeoutMs ?? 300_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new SkillhostError('SOURCE_FETCH_FAILED', `git could not start: ${error.message}`));
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function failed(what: string, url: string, run: GitRun): SkillhostError {
  const reason = run.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500);
  return new SkillhostError('SOURCE_FETCH_FAILED', `git ${what} ${url} failed: ${reason}`, {
    details: { url },
  });
}

/**
 * The commit a source's ref names, asked of the remote (`git ls-remote`): the default branch
 * without a ref, else the branch, else the tag (peeled to its commit); a full commit id is taken
 * as it is.
 */
export async function resolveGitRef(source: GitSource, options: GitOptions): Promise<string> {
  if (source.ref !== undefined && isFullCommit(source.ref)) return source.ref;
  const run = await runGit(['ls-remote', '--symref', '--', source.url], options);
  if (run.status !== 0) throw failed('ls-remote', source.url, run);
  const refs = new Map<string, string>();
  for (const line of run.stdout.split('\n')) {
    const [id, name] = line.split('\t');
    if (id !== undefined && name !== undefined && /^[0-9a-f]{40,64}$/.test(id)) refs.set(name, id);
  }
  const wanted =
    source.ref === undefined
      ? ['HEAD']
      : [`refs/heads/${source.ref}`, `refs/tags/${source.ref}^{}`, `refs/tags/${source.ref}`];
  for (const name of wanted) {
    const id = refs.get(name);
    if (id !== undefined) return id;
  }
  throw new SkillhostError(
    'SOURCE_REF_NOT_FOUND',
    source.ref === undefined
      ? `${source.url} has no default branch`
      : `${source.url} has no branch or tag ${source.ref} (an abbreviated commit id is not enough: give all of it)`,
    { details: { url: source.url, ref: source.ref ?? null } },
  );
}

/**
 * Checks out `commit` of the repository into `directory` (which must not exist): a fresh
 * repository without templates, the one commit fetched shallowly (the whole history only when
 * the server does not hand out a commit by its id), checked out detached with hooks off, then
 * verified. Submodules only when the source asks for them, shallow and under the same rules.
 */
export async function checkoutGitCommit(
  source: GitSource,
  commit: string,
  directory: string,
  options: GitOptions,
): Promise<void> {
  mkdirSync(directory, { recursive: false, mode: 0o700 });
  const init = await runGit(['init', '--quiet', '--template=', directory], options);
  if (init.status !== 0) throw failed('init for', source.url, init);
  const shallow = await runGit(
    [
      'fetch',
      '--quiet',
      '--depth',
      '1',
      '--no-tags',
      '--no-recurse-submodules',
      '--',
      source.url,
      commit,
    ],
    options,
    directory,
  );
  if (shallow.status !== 0) {
    const full = await runGit(
      [
        'fetch',
        '--quiet',
        '--no-tags',
        '--no-recurse-submodules',
        '--',
        source.url,
        '+refs/heads/*:refs/remotes/origin/*',
        '+refs/tags/*:refs/tags/*',
      ],
      options,
      directory,
    );
    if (full.status !== 0) throw failed('fetch', source.url, full);
    const known = await runGit(['cat-file', '-e', `${commit}^{commit}`], options, directory);
    if (known.status !== 0)
      throw new SkillhostError(
        'SOURCE_REF_NOT_FOUND',
        `${source.url} no longer has the commit ${commit}`,
        { details: { url: source.url, commit } },
      );
  }
  const checkout = await runGit(['checkout', '--quiet', '--detach', commit], options, directory);
  if (checkout.status !== 0) throw failed('checkout of', source.url, checkout);
  const head = await runGit(['rev-parse', 'HEAD'], options, directory);
  if (head.status !== 0 || head.stdout.trim() !== commit)
    throw new SkillhostError(
      'SOURCE_FETCH_FAILED',
      `${source.url}: the checkout is not at ${commit}`,
    );
  if (source.submodules === true) {
    const submodules = await runGit(
      ['submodule', 'update', '--quiet', '--init', '--recursive', '--depth', '1'],
      options,
      directory,
    );
    if (submodules.status !== 0) throw failed('submodule update for', source.url, submodules);
  }
}

/** A folder name for a repository's checkout: its last path segment without `.git`. */
export function repositoryName(url: string): string {
  const path = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const last = path.split(/[/:]/).at(-1) ?? '';
  const name = last.replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]/g, '-');
  return name === '' || /^\.+$/.test(name) ? 'repository' : name;
}
