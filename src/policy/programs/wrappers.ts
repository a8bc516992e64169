/** The option table: programs that run the command they are given. */
import { type ArgumentSpec, list, type ProgramSpec, type WrapperSpec } from './spec.js';

const WRAPS = 'runs the command it is given';

/** A program that runs the command in its operands, with the options that take a value. */
function wrapper(
  names: readonly string[],
  values: readonly string[] = [],
  more: Partial<WrapperSpec> & Pick<ArgumentSpec, 'rows' | 'optionalValues'> = {},
): ProgramSpec {
  const { rows, optionalValues, ...wrapping } = more;
  return {
    names,
    values,
    ...(optionalValues === undefined ? {} : { optionalValues }),
    ...(rows === undefined ? {} : { rows }),
    wrapper: { reason: WRAPS, ...wrapping },
  };
}

/** Programs that run the command they are given, and shell builtins that can. */
export const WRAPPERS: readonly ProgramSpec[] = [
  wrapper(['env'], ['-u', '--unset', '-C', '--chdir', '-a', '--argv0'], {
    assignments: true,
    optionalValues: ['--block-signal', '--default-signal', '--ignore-signal'],
    rows: [
      {
        kind: 'option',
        options: ['-S', '--split-string'],
        payload: 'shell',
        reason: 'runs the command line it is given',
      },
    ],
  }),
  wrapper(
    ['xargs'],
    list(
      '-a --arg-file -d --delimiter -E --eof -I --replace -L --max-lines -n --max-args -P --max-procs -s --max-chars --process-slot-var',
    ),
    {
      reason:
        'runs the command it is given with arguments read from its input, which the command line does not show',
      fallback: ['echo'],
      open: true,
      optionalValues: ['-e', '-i', '-l'],
    },
  ),
  wrapper(
    list(
      'nohup setsid unbuffer catchsegv caffeinate proxychains proxychains4 torsocks tsocks dbus-run-session xvfb-run pkexec builtin',
    ),
  ),
  wrapper(['nice'], ['-n', '--adjustment']),
  wrapper(['timeout'], ['-s', '--signal', '-k', '--kill-after'], { skip: 1 }),
  wrapper(['stdbuf'], ['-i', '--input', '-o', '--output', '-e', '--error']),
  wrapper(['time'], ['-f', '--format', '-o', '--output']),
  wrapper(['command'], [], { without: ['-v', '-V'] }),
  wrapper(['exec'], ['-a']),
  wrapper(
    ['sudo', 'doas', 'run0'],
    list(
      '-u --user -g --group -h --host -p --prompt -C --close-from -r --role -t --type -U --other-user -D --chdir -R --chroot -T --command-timeout',
    ),
    {
      reason: 'runs the command it is given as another user',
      without: ['-l', '--list', '-v', '--validate', '-k', '-K'],
    },
  ),
  wrapper(['chroot'], ['--userspec', '--groups'], { skip: 1 }),
  wrapper(
    ['ionice'],
    ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'],
    { without: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  ),
  wrapper(['taskset'], [], { skip: 1, without: ['-p', '--pid'] }),
  wrapper(['chrt'], ['-T', '-P', '-D'], { skip: 1, without: ['-p', '--pid'] }),
  wrapper(['flock'], ['-w', '--timeout', '-E', '--conflict-exit-code'], {
    skip: 1,
    rows: [
      {
        kind: 'option',
        options: ['-c', '--command'],
        payload: 'shell',
        reason: 'runs the shell command it is given',
      },
    ],
  }),
  wrapper(['watch'], ['-n', '--interval', '-q', '--equexit'], {
    join: true,
    optionalValues: ['-d', '--differences'],
  }),
  wrapper(
    ['strace', 'ltrace'],
    list('-e -o -p -s -u -a -b -E -I -O -P -S -X -n -A -D -F -l -L -w -x'),
    { without: ['-p'] },
  ),
  wrapper(['valgrind'], []),
  wrapper(['prlimit'], ['-p', '--pid'], { without: ['-p', '--pid'] }),
  wrapper(
    ['nsenter', 'unshare'],
    ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-w', '--wd'],
  ),
  wrapper(
    ['systemd-run'],
    list(
      '-u --unit -p --property -E --setenv --description --slice -M --machine -H --host --uid --gid --nice --working-directory --on-calendar --on-active --on-boot --timer-property --path-property --socket-property',
    ),
  ),
  wrapper(['firejail'], []),
  wrapper(['busybox'], [], { reason: 'runs the applet it is given' }),
  wrapper(['eval'], [], { reason: 'runs its arguments as a shell command', join: true }),
  wrapper(['sg'], [], {
    skip: 1,
    join: true,
    rows: [
      {
        kind: 'option',
        options: ['-c'],
        payload: 'shell',
        reason: 'runs the shell command it is given',
      },
    ],
  }),
  {
    names: ['su', 'runuser'],
    values: list('-s --shell -g --group -G --supp-group -u --user -w --whitelist-environment'),
    rows: [
      {
        kind: 'option',
        options: ['-c', '--command', '--session-command'],
        payload: 'shell',
        reason: 'runs the shell command it is given as another user',
      },
      { kind: 'option', options: ['-s', '--shell'], reason: 'runs another program as the shell' },
      {
        kind: 'always',
        reason: 'starts a shell as another user',
        unless: ['-c', '--command', '--session-command'],
      },
    ],
  },
  {
    names: ['script'],
    values: list(
      '-c --command -E --echo -I --log-in -O --log-out -B --log-io -T --log-timing -m --logging-format',
    ),
    rows: [
      {
        kind: 'option',
        options: ['-c', '--command'],
        payload: 'shell',
        reason: 'runs the shell command it is given',
      },
      {
        kind: 'always',
        reason: 'starts a shell that reads commands from its input',
        unless: ['-c', '--command'],
      },
    ],
  },
  {
    names: ['trap'],
    rows: [
      {
        kind: 'operand',
        match: /[\s\S]*/,
        first: true,
        payload: 'shell',
        label: 'ACTION',
        reason: 'runs a shell command when a signal arrives',
        unless: ['-p', '-l'],
      },
    ],
  },
  {
    names: ['parallel'],
    rows: [{ kind: 'always', reason: 'runs commands built from its input or its arguments' }],
  },
  {
    names: ['gdb', 'lldb'],
    rows: [
      { kind: 'always', reason: 'debugs (and so runs) other programs, and runs shell commands' },
    ],
  },
  {
    names: ['crontab'],
    rows: [{ kind: 'always', reason: 'installs commands that run on a schedule', unless: ['-l'] }],
  },
  {
    names: ['at', 'batch'],
    rows: [
      {
        kind: 'always',
        reason: 'runs commands later (read from its input or a file)',
        unless: ['-l', '-r', '-d', '-c'],
      },
    ],
  },
  {
    names: ['printf'],
    values: ['-v'],
    rows: [
      {
        kind: 'option',
        options: ['-v'],
        value: /\[/,
        payload: 'code',
        reason: 'assigns to an array element, and its subscript can run a command substitution',
      },
    ],
  },
  {
    names: list('read declare typeset local export readonly unset getopts wait let'),
    rows: [{ kind: 'check', check: 'subscript' }],
  },
  {
    names: ['mapfile', 'readarray'],
    values: list('-d -n -O -s -u -c'),
    rows: [
      {
        kind: 'option',
        options: ['-C'],
        payload: 'shell',
        reason: 'runs the callback command it is given for every line',
      },
      { kind: 'check', check: 'subscript' },
    ],
  },
  // Builtins that make a name stand for another program, or load code.
  {
    names: ['alias'],
    rows: [
      {
        kind: 'operand',
        match: /=/,
        payload: 'setting',
        label: 'NAME=COMMAND',
        reason: 'makes a name stand for a command (aliases run when expand_aliases is on)',
      },
    ],
  },
  {
    names: ['hash'],
    rows: [
      {
        kind: 'option',
        options: ['-p'],
        payload: 'shell',
        reason: 'makes a name run another program',
      },
    ],
  },
  {
    names: ['enable'],
    rows: [
      {
        kind: 'option',
        options: ['-f'],
        value: /[\s\S]*/,
        reason: 'loads a builtin from a shared library (code)',
      },
    ],
  },
  {
    names: ['source', '.'],
    optionsEndAtOperand: true,
    rows: [
      { kind: 'operand', match: 'none', reason: 'reads commands from its input' },
      {
        kind: 'operand',
        match: 'stdin',
        first: true,
        reason: 'reads commands from its input, which the command line does not show',
      },
    ],
  },
];
