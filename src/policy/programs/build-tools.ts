/** The option table: build tools, containers and editors. */
import { plain } from './helpers.js';
import { list, type ProgramSpec } from './spec.js';

const MAKE: ProgramSpec = {
  names: ['make', 'gmake'],
  abbreviates: true,
  values: list(
    '-f --file --makefile -C --directory -I --include-dir -o --old-file --assume-old -W --what-if --new-file --assume-new',
  ),
  optionalValues: ['-j', '--jobs', '-l', '--load-average', '--debug', '-O', '--output-sync'],
  rows: [
    {
      kind: 'option',
      options: ['-E', '--eval'],
      payload: 'code',
      reason: 'evaluates make text given on the command line (its recipes run shell commands)',
    },
    {
      kind: 'operand',
      match: /^[A-Za-z_][A-Za-z0-9_.-]*\s*(?:::?=|:::=|\+=|\?=|!=|=)/,
      payload: 'code',
      label: 'NAME=VALUE',
      reason: 'sets a variable, which recipes may run as a command (CC=..., SHELL=...)',
    },
    {
      kind: 'option',
      options: ['-f', '--file', '--makefile'],
      value: /^(?:-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/,
      reason: 'reads its makefile from its input',
    },
  ],
};

const CONTAINERS: ProgramSpec = {
  names: ['docker', 'podman', 'nerdctl'],
  values: list('-H --host --config -c --context -l --log-level --tlscacert --tlscert --tlskey'),
  subcommands: {
    specs: plain(
      list(
        'ps images logs inspect version info pull search history stats top port diff events tag login logout push save kill stop rm rmi pause unpause wait rename export',
      ),
    ),
    unknown: {
      reason:
        "runs containers, or is a command skillhost does not know (run, exec and build run programs, and can reach the host's files)",
    },
  },
};

const VIM: ProgramSpec = {
  names: ['vim', 'vi', 'nvim', 'view', 'ex', 'vimdiff', 'gvim'],
  values: ['-i', '-T', '-w', '-W', '--startuptime', '-t', '-q', '-r'],
  rows: [
    {
      kind: 'option',
      options: ['-c', '--cmd'],
      payload: 'code',
      reason: 'runs editor commands (and :!command runs a shell command)',
    },
    {
      kind: 'option',
      options: ['-S', '-s', '-u', '-U'],
      value: /[\s\S]*/,
      reason: 'reads editor commands from a file',
    },
    { kind: 'option', options: ['-e', '-E'], reason: 'reads editor commands from its input' },
    {
      kind: 'operand',
      match: /^\+/,
      label: '+COMMAND',
      reason: 'runs an editor command at start (and :!command runs a shell command)',
    },
  ],
};

const EMACS: ProgramSpec = {
  names: ['emacs', 'emacsclient'],
  singleDash: true,
  rows: [
    {
      kind: 'option',
      options: list(
        '--eval -eval --load -l -load --funcall -f -funcall --script -script -x --batch -batch',
      ),
      reason: 'runs Lisp code (which can run programs)',
    },
  ],
};

/** The second part of the table. */

/** make, containers, editors. */
export const BUILD_TOOLS: readonly ProgramSpec[] = [MAKE, CONTAINERS, VIM, EMACS];
