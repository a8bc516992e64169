/** The option table: version control. */
import { askAlways, plain, same } from './helpers.js';
import {
  type ArgumentSpec,
  list,
  type OptionRow,
  type ProgramSpec,
  type SubcommandTable,
} from './spec.js';

const GIT_CONFIG_REASON =
  'can run another program: settings such as core.sshCommand, core.pager, core.fsmonitor and alias.NAME=!command run programs';
const gitConfigOption: OptionRow = {
  kind: 'option',
  options: ['-c', '--config'],
  payload: 'setting',
  reason: GIT_CONFIG_REASON,
};
const uploadPack: OptionRow = {
  kind: 'option',
  options: ['--upload-pack', '-u'],
  payload: 'shell',
  reason: 'runs another program in place of git-upload-pack',
};
const receivePack: OptionRow = {
  kind: 'option',
  options: ['--receive-pack', '--exec'],
  payload: 'shell',
  reason: 'runs another program in place of git-receive-pack',
};
const template: OptionRow = {
  kind: 'option',
  options: ['--template'],
  value: /[\s\S]*/,
  reason:
    'copies hook programs from another folder into the repository (they run on later git commands)',
};
/** `--output=FILE`: git writes where it is told, its own configuration and hooks included. */
const writesOutput: ArgumentSpec = {
  values: ['--output'],
  rows: [
    {
      kind: 'option',
      options: ['--output'],
      value: /[\s\S]*/,
      reason: 'writes its output to a file (it could rewrite .git/config or a hook)',
    },
  ],
};
const fetching: ArgumentSpec = { abbreviates: true, rows: [uploadPack] };

/** git's own commands (an alias can never shadow one of these). */
const GIT_COMMANDS = list(
  'add am annotate apply archimport blame branch bugreport bundle cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick clean column commit commit-graph commit-tree count-objects describe diagnose diff diff-files diff-index diff-tree fast-export fast-import fmt-merge-msg for-each-ref format-patch fsck fsck-objects gc get-tar-commit-id grep hash-object help index-pack interpret-trailers log ls-files ls-tree mailinfo mailsplit merge merge-base merge-file merge-index merge-ours merge-recursive merge-subtree merge-tree mktag mktree multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id prune prune-packed range-diff read-tree receive-pack reflog repack replace rerere reset restore rev-list rev-parse revert rm shortlog show show-branch show-index show-ref sparse-checkout stage stash status stripspace switch symbolic-ref tag unpack-file unpack-objects update-index update-ref update-server-info upload-archive upload-pack var verify-commit verify-pack verify-tag version whatchanged worktree write-tree',
);

const gitSubcommands: SubcommandTable = {
  specs: {
    ...plain(GIT_COMMANDS),
    ...same(
      list('log show diff whatchanged range-diff diff-tree diff-index diff-files'),
      writesOutput,
    ),
    ...same(['fetch', 'pull', 'ls-remote', 'fetch-pack'], fetching),
    ...same(['push', 'send-pack'], { abbreviates: true, rows: [receivePack] }),
    archive: {
      abbreviates: true,
      values: ['-o', '--output', '--format', '--prefix', '--remote'],
      rows: [
        {
          kind: 'option',
          options: ['-o', '--output'],
          value: /[\s\S]*/,
          reason: 'writes the archive to a file (anywhere, .git included)',
        },
        {
          kind: 'option',
          options: ['--exec'],
          payload: 'shell',
          reason: 'runs another program in place of git-upload-archive',
        },
      ],
    },
    clone: {
      abbreviates: true,
      values: list(
        '-o --origin -b --branch --depth --reference --reference-if-able --separate-git-dir -j --jobs --filter --shallow-since --shallow-exclude --server-option --bundle-uri --ref-format',
      ),
      rows: [uploadPack, gitConfigOption, template],
    },
    init: {
      abbreviates: true,
      values: list('--separate-git-dir -b --initial-branch --object-format --ref-format --shared'),
      rows: [template],
    },
    'init-db': { abbreviates: true, rows: [template] },
    config: {
      values: ['-f', '--file', '--blob', '--type', '--default', '--comment', '--value', '--url'],
      rows: [{ kind: 'check', check: 'git-config-write' }],
    },
    grep: {
      abbreviates: true,
      values: list(
        '-e -f -A -B -C -m --max-count --max-depth --threads --context --after-context --before-context',
      ),
      optionalValues: ['-O', '--open-files-in-pager'],
      rows: [
        {
          kind: 'option',
          options: ['-O', '--open-files-in-pager'],
          reason: 'runs a pager program (the one it names, or the configured one)',
        },
      ],
    },
    rebase: {
      abbreviates: true,
      values: list('--onto -s --strategy -X --strategy-option -C --whitespace --empty'),
      rows: [
        {
          kind: 'option',
          options: ['-x', '--exec'],
          payload: 'shell',
          reason: 'runs a shell command after each commit',
        },
      ],
    },
    bisect: {
      subcommands: {
        specs: {
          ...plain(list('start bad new good old terms skip reset visualize view replay log help')),
          run: { wrapper: { reason: 'runs the command it is given at every step' } },
        },
        unknown: { reason: 'is not a git bisect command skillhost knows' },
      },
    },
    submodule: {
      values: ['-b', '--branch', '--reference', '--depth', '--name', '-j', '--jobs', '--filter'],
      subcommands: {
        specs: {
          ...plain(
            list('add status init deinit update set-branch set-url summary sync absorbgitdirs'),
          ),
          foreach: { wrapper: { reason: 'runs a shell command in every submodule', join: true } },
        },
        unknown: { reason: 'is not a git submodule command skillhost knows' },
      },
    },
    remote: {
      subcommands: {
        specs: {
          ...plain(['show', 'get-url', 'prune', 'update']),
          ...same(
            ['add', 'set-url', 'rename', 'remove', 'rm', 'set-head', 'set-branches'],
            askAlways("writes the repository's configuration (remote URLs and settings)"),
          ),
        },
        unknown: { reason: 'is not a git remote command skillhost knows' },
      },
    },
    maintenance: {
      subcommands: {
        specs: {
          run: {},
          ...same(
            ['start', 'stop', 'register', 'unregister'],
            askAlways(
              "changes the system's scheduler (cron, systemd or launchd) or git's configuration",
            ),
          ),
        },
        unknown: { reason: 'is not a git maintenance command skillhost knows' },
      },
    },
    difftool: askAlways('runs diff tool programs (configured, or named with -t, -x)'),
    mergetool: askAlways('runs merge tool programs (configured, or named with -t)'),
    'filter-branch': askAlways('runs shell commands (its filters) on every commit'),
    credential: askAlways('runs credential helper programs and can print stored passwords'),
    'credential-store': askAlways('reads and writes stored passwords'),
    'credential-cache': askAlways('reads and writes cached passwords'),
    hook: askAlways('runs a hook program'),
    'for-each-repo': askAlways('runs git commands in the repositories a setting lists'),
  },
  unknown: {
    reason:
      'may be an alias (an !alias runs any shell command) or a git-NAME program on the PATH: which one depends on configuration skillhost cannot see',
  },
};

const GIT: ProgramSpec = {
  names: ['git'],
  values: list('-C -c --git-dir --work-tree --namespace --super-prefix --config-env --attr-source'),
  optionalValues: ['--exec-path', '--list-cmds'],
  flags: list(
    '-p --paginate -P --no-pager --bare --no-replace-objects --literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks --no-lazy-fetch --no-advice --html-path --man-path --info-path --version -v --help -h',
  ),
  optionsEndAtOperand: true,
  rows: [
    { ...gitConfigOption, options: ['-c'] },
    {
      kind: 'option',
      options: ['--config-env'],
      value: /[\s\S]*/,
      payload: 'code',
      reason: 'sets configuration from an environment variable (settings run programs)',
    },
    {
      kind: 'option',
      options: ['--exec-path'],
      value: /./,
      reason: 'makes git run its commands from another folder',
    },
  ],
  subcommands: gitSubcommands,
};

const hg: ProgramSpec = {
  names: ['hg'],
  values: ['-R', '--repository', '--cwd', '--encoding', '--encodingmode'],
  rows: [
    {
      kind: 'option',
      options: ['--config'],
      payload: 'setting',
      reason: 'sets configuration, and settings (hooks, aliases, ui.ssh) run programs',
    },
    {
      kind: 'option',
      options: ['-e', '--ssh', '--remotecmd'],
      payload: 'shell',
      reason: 'runs another program to reach the other machine',
    },
    { kind: 'option', options: ['--debugger'], reason: 'starts a debugger' },
  ],
};

/** git and hg. */
export const GIT_TOOLS: readonly ProgramSpec[] = [GIT, hg];
