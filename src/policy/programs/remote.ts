/** The option table: remote access and transfer. */
import { list, type OptionRow, type ProgramSpec } from './spec.js';

const sshSettings: OptionRow = {
  kind: 'option',
  options: ['-o'],
  value:
    /^\s*(?:proxycommand|localcommand|permitlocalcommand|knownhostscommand|remotecommand|match|include|pkcs11provider|securitykeyprovider|proxyusefdpass)\b/i,
  payload: 'setting',
  reason: 'sets an option that runs another program or loads code',
};
const sshConfig: OptionRow = {
  kind: 'option',
  options: ['-F'],
  value: /[\s\S]*/,
  reason: 'reads another configuration file, which can name programs to run (ProxyCommand)',
};

/** Remote access and transfer. */
export const REMOTE_TOOLS: readonly ProgramSpec[] = [
  {
    names: ['ssh', 'autossh'],
    values: list('-B -b -c -D -E -e -I -i -J -L -l -m -O -P -p -Q -R -S -W -w'),
    rows: [
      sshSettings,
      sshConfig,
      { kind: 'option', options: ['-I'], reason: 'loads a PKCS#11 library (code)' },
    ],
    wrapper: { reason: 'runs a command on the other machine', skip: 1, join: true },
  },
  {
    names: ['scp'],
    values: ['-c', '-D', '-i', '-J', '-l', '-P', '-X'],
    rows: [
      sshSettings,
      sshConfig,
      {
        kind: 'option',
        options: ['-S'],
        payload: 'shell',
        reason: 'runs another program in place of ssh',
      },
    ],
  },
  {
    names: ['sftp'],
    rows: [
      {
        kind: 'always',
        reason:
          'reads commands from its input or a batch file, and !command runs a local shell command',
      },
    ],
  },
  {
    names: ['rsync'],
    values: list(
      '-T --temp-dir -f --filter -B --block-size --exclude --include --exclude-from --include-from --files-from --partial-dir --compare-dest --copy-dest --link-dest --log-file --log-file-format --out-format --password-file --port --address --bwlimit --timeout --contimeout --chmod --chown --usermap --groupmap --backup-dir --suffix --max-size --min-size --max-delete --modify-window --iconv --checksum-choice --compress-choice --compress-level --skip-compress --sockopts --outbuf --write-batch --only-write-batch --read-batch --protocol --info --debug --stop-after --stop-at',
    ),
    abbreviates: true,
    rows: [
      {
        kind: 'option',
        options: ['-e', '--rsh'],
        payload: 'shell',
        reason: 'runs another program to reach the other machine',
      },
      {
        kind: 'option',
        options: ['--rsync-path'],
        payload: 'shell',
        reason: 'runs another program (or command line) in place of rsync on the other side',
      },
      {
        kind: 'option',
        options: ['-M', '--remote-option'],
        value: /[\s\S]*/,
        reason: 'passes options to the other side (-e and --rsync-path among them)',
      },
    ],
  },
  {
    names: ['wget'],
    values: list(
      '-O --output-document -o --output-file -a --append-output -i --input-file -P --directory-prefix -U --user-agent --header --post-data --post-file -t --tries -T --timeout -w --wait --user --password',
    ),
    abbreviates: true,
    rows: [
      {
        kind: 'option',
        options: ['-e', '--execute'],
        value: /[\s\S]*/,
        reason: 'runs wgetrc commands given on the command line',
      },
      {
        kind: 'option',
        options: ['--use-askpass'],
        payload: 'shell',
        reason: 'runs a program to ask for passwords',
      },
      {
        kind: 'option',
        options: ['--config'],
        value: /[\s\S]*/,
        reason: 'reads another wgetrc file',
      },
    ],
  },
];
