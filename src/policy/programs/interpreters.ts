/** The option table: shells and language interpreters. */
import { INLINE, stdinRows } from './helpers.js';
import { list, type ProgramRow, type ProgramSpec } from './spec.js';

const shellRows: ProgramRow[] = [
  {
    kind: 'operand',
    match: /[\s\S]*/,
    first: true,
    when: ['-c'],
    payload: 'shell',
    label: '-c COMMAND',
    reason: 'runs the shell command it is given',
  },
  ...stdinRows(['-c']),
  { kind: 'option', options: ['-s'], reason: 'reads commands from its input' },
  {
    kind: 'option',
    options: ['-i'],
    reason: 'starts an interactive shell that reads commands from its input',
    unless: ['-c'],
  },
  {
    kind: 'option',
    options: ['--rcfile', '--init-file'],
    reason: 'reads commands from another file at start',
  },
];

/** Shells and language interpreters: inline code, code from input, modules loaded. */
export const INTERPRETERS: readonly ProgramSpec[] = [
  {
    names: ['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash'],
    values: ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'],
    plusOptions: true,
    optionsEndAtOperand: true,
    rows: shellRows,
  },
  {
    names: ['fish'],
    values: ['-c', '--command', '-C', '--init-command', '-d', '--debug', '-o', '--debug-output'],
    optionsEndAtOperand: true,
    rows: [
      {
        kind: 'option',
        options: ['-c', '--command', '-C', '--init-command'],
        payload: 'shell',
        reason: 'runs the shell command it is given',
      },
      ...stdinRows(['-c', '--command']),
    ],
  },
  {
    names: ['python', 'python3', 'python2', 'pypy', 'pypy3'],
    values: ['-W', '-X', '--check-hash-based-pycs'],
    optionsEndAtOperand: true,
    rows: [
      { kind: 'option', options: ['-c'], payload: 'code', reason: INLINE },
      { kind: 'option', options: ['-m'], payload: 'rest' },
      {
        kind: 'option',
        options: ['-m'],
        value: /^(?:timeit|pdb|code|idlelib|asyncio|trace|profile|cProfile|doctest|runpy|pydoc)$/,
        reason: 'runs a module that runs Python text from its arguments or its input',
      },
      { kind: 'option', options: ['-i'], reason: 'reads more program text from its input' },
      ...stdinRows(['-c', '-m', '-V', '--version', '-h', '--help']),
    ],
  },
  {
    names: ['node', 'nodejs'],
    values: list(
      '-C --conditions --inspect-port --input-type --title --redirect-warnings --icu-data-dir --watch-path --stack-size --test-reporter --test-reporter-destination --run',
    ),
    optionalValues: ['--inspect', '--inspect-brk', '--inspect-wait'],
    optionsEndAtOperand: true,
    rows: [
      {
        kind: 'option',
        options: ['-e', '--eval', '-p', '--print'],
        payload: 'code',
        reason: INLINE,
      },
      {
        kind: 'option',
        options: ['-r', '--require', '--import', '--loader', '--experimental-loader'],
        value: /[\s\S]*/,
        reason: 'loads a module before the program',
      },
      {
        kind: 'option',
        options: ['--env-file', '--env-file-if-exists'],
        value: /[\s\S]*/,
        reason: 'reads settings from a file (NODE_OPTIONS there can load any code)',
      },
      {
        kind: 'option',
        options: ['--openssl-config'],
        value: /[\s\S]*/,
        reason: 'reads an OpenSSL configuration (which can load engines: code)',
      },
      {
        kind: 'option',
        options: ['--inspect', '--inspect-brk', '--inspect-wait', '--inspect-port'],
        reason: 'opens a debugger port through which local programs can run code',
      },
      {
        kind: 'option',
        options: ['-i', '--interactive'],
        reason: 'reads program text from its input',
      },
      ...stdinRows(list('-e --eval -p --print --test --run -v --version -h --help -c --check')),
    ],
  },
  {
    names: ['perl'],
    values: ['-I'],
    optionalValues: ['-i', '-l', '-0', '-C', '-x', '-d', '-D'],
    optionsEndAtOperand: true,
    rows: [
      { kind: 'option', options: ['-e', '-E'], payload: 'code', reason: INLINE },
      {
        kind: 'option',
        options: ['-M', '-m'],
        value: /[\s\S]*/,
        reason: 'loads a module named on the command line (which can carry code)',
      },
      { kind: 'option', options: ['-d'], reason: 'runs the program under a debugger module' },
      ...stdinRows(['-e', '-E', '-v', '-V', '-h']),
    ],
  },
  {
    names: ['ruby', 'irb'],
    values: list('-I -C -E -F --encoding --external-encoding --internal-encoding --dump'),
    optionalValues: ['-x', '-i', '-0', '-W', '-T'],
    optionsEndAtOperand: true,
    rows: [
      { kind: 'option', options: ['-e'], payload: 'code', reason: INLINE },
      {
        kind: 'option',
        options: ['-r', '--require'],
        value: /[\s\S]*/,
        reason: 'loads a library named on the command line',
      },
      {
        kind: 'option',
        options: ['-S'],
        reason: 'looks its program up on the PATH (another program)',
      },
      ...stdinRows(['-e', '-v', '--version', '-h', '--help']),
    ],
  },
  {
    names: ['php'],
    values: ['-f', '-t', '-S', '--rf', '--rc', '--re', '--ri', '--rz'],
    optionsEndAtOperand: true,
    rows: [
      { kind: 'option', options: ['-r', '-B', '-R', '-E'], payload: 'code', reason: INLINE },
      {
        kind: 'option',
        options: ['-d', '-c', '-z'],
        value: /[\s\S]*/,
        reason: 'sets ini options or loads an extension (auto_prepend_file and others load code)',
      },
      { kind: 'option', options: ['-a'], reason: 'reads program text from its input' },
      ...stdinRows(['-r', '-B', '-R', '-E', '-f', '-S', '-v', '-h', '-i', '-m', '-l']),
    ],
  },
  {
    names: ['lua', 'luajit'],
    optionsEndAtOperand: true,
    rows: [
      { kind: 'option', options: ['-e'], payload: 'code', reason: INLINE },
      {
        kind: 'option',
        options: ['-l'],
        value: /[\s\S]*/,
        reason: 'loads a library named on the command line',
      },
      ...stdinRows(['-e', '-v']),
    ],
  },
  {
    names: ['rscript', 'r'],
    values: ['--default-packages'],
    optionsEndAtOperand: true,
    rows: [{ kind: 'option', options: ['-e'], payload: 'code', reason: INLINE }],
  },
  {
    names: ['osascript'],
    values: ['-l', '-s'],
    optionsEndAtOperand: true,
    rows: [
      { kind: 'option', options: ['-e'], payload: 'code', reason: INLINE },
      ...stdinRows(['-e']),
    ],
  },
  {
    names: ['pwsh', 'powershell'],
    rows: [
      {
        kind: 'always',
        reason:
          'takes code in many forms (-Command, -EncodedCommand, abbreviated, in any case): each use asks',
      },
    ],
  },
];
