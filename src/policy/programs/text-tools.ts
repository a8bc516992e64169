/** The option table: text tools and archives. */
import { list, type ProgramSpec } from './spec.js';

/** Text tools: search, edit, sort, page. */
export const TEXT_TOOLS: readonly ProgramSpec[] = [
  {
    names: ['find', 'gfind'],
    singleDash: true,
    values: list(
      '-name -iname -path -ipath -regex -iregex -type -xtype -newer -perm -user -group -size -mtime -mmin -atime -amin -ctime -cmin -maxdepth -mindepth -printf -fstype -inum -links -lname -ilname -samefile -uid -gid -used -wholename -iwholename -regextype -files0-from -D -context',
    ),
    rows: [
      {
        kind: 'option',
        options: ['-exec', '-execdir', '-ok', '-okdir'],
        payload: 'words',
        reason: 'runs the command it is given for every file',
      },
      {
        kind: 'option',
        options: ['-fprint', '-fprint0', '-fls'],
        value: /[\s\S]*/,
        reason: 'writes to a file',
      },
      { kind: 'option', options: ['-fprintf'], value: /[\s\S]*/, reason: 'writes to a file' },
      { kind: 'option', options: ['-delete'], reason: 'deletes the files it finds' },
    ],
  },
  {
    names: ['fd', 'fdfind'],
    values: list(
      '-e --extension -t --type -E --exclude -d --max-depth --min-depth -S --size -j --threads -c --color --changed-within --changed-before -o --owner --base-directory --path-separator --search-path --max-results --ignore-file',
    ),
    rows: [
      {
        kind: 'option',
        options: ['-x', '--exec', '-X', '--exec-batch'],
        payload: 'words',
        reason: 'runs the command it is given for the files it finds',
      },
    ],
  },
  {
    names: ['sed', 'gsed'],
    values: ['-e', '--expression', '-f', '--file', '-l', '--line-length'],
    optionalValues: ['-i', '--in-place'],
    abbreviates: true,
    rows: [
      { kind: 'option', options: ['-i', '--in-place'], reason: 'edits files in place' },
      { kind: 'check', check: 'sed-script' },
    ],
  },
  {
    names: ['awk', 'gawk', 'mawk', 'nawk'],
    values: list(
      '-F --field-separator -v --assign -f --file -e --source -W -i --include -E --exec',
    ),
    abbreviates: true,
    rows: [
      {
        kind: 'option',
        options: ['-l', '--load'],
        value: /[\s\S]*/,
        reason: 'loads a compiled extension (code)',
      },
      { kind: 'check', check: 'awk-program' },
    ],
  },
  {
    names: ['sort'],
    values: list(
      '-k --key -t --field-separator -o --output -T --temporary-directory -S --buffer-size --parallel --batch-size --files0-from --random-source',
    ),
    abbreviates: true,
    rows: [
      {
        kind: 'option',
        options: ['--compress-program'],
        payload: 'shell',
        reason: 'runs another program to compress its temporary files',
      },
    ],
  },
  {
    names: ['rg'],
    values: list(
      '-e --regexp -f --file -g --glob --iglob -t --type -T --type-not --type-add -A -B -C -m --max-count -d --max-depth --pre-glob -E --encoding -j --threads -M --max-columns --colors --color --sort --sortr -r --replace --ignore-file --path-separator --engine',
    ),
    rows: [
      {
        kind: 'option',
        options: ['--pre'],
        payload: 'shell',
        reason: 'runs a program on every file it searches',
      },
      {
        kind: 'option',
        options: ['--hostname-bin'],
        payload: 'shell',
        reason: 'runs a program to learn the host name',
      },
    ],
  },
  {
    names: ['less'],
    values: list(
      '-b -h -j -o -O -p -P -t -T -x -y -z -# --log-file --LOG-FILE --tag --tag-file --pattern --prompt --shift --tabs --window',
    ),
    rows: [
      {
        kind: 'operand',
        match: /^\+/,
        label: '+COMMAND',
        reason: 'runs less commands at start (and !command runs a shell command)',
      },
      {
        kind: 'option',
        options: ['-k', '--lesskey-file', '--lesskey-src'],
        value: /[\s\S]*/,
        reason: 'reads key bindings from a file (which can run shell commands)',
      },
    ],
  },
  {
    names: ['man'],
    optionalValues: ['-H', '--html'],
    values: list(
      '-M --manpath -L --locale -m --systems -S -s --sections -e --extension -r --prompt -E --encoding -R --recode -p --preprocessor',
    ),
    rows: [
      {
        kind: 'option',
        options: ['-P', '--pager'],
        payload: 'shell',
        reason: 'runs the pager program it names',
      },
      { kind: 'option', options: ['-H', '--html'], reason: 'runs a web browser' },
      {
        kind: 'option',
        options: ['-C', '--config-file'],
        value: /[\s\S]*/,
        reason: 'reads another configuration file (which names programs)',
      },
    ],
  },
];

/** Archives. */
export const ARCHIVES: readonly ProgramSpec[] = [
  {
    names: ['tar', 'gtar', 'bsdtar'],
    values: list(
      '-f --file -C --directory -b --blocking-factor -T --files-from -X --exclude-from -g --listed-incremental -H --format -K --starting-file -L --tape-length -N --newer --after-date -V --label --exclude --transform --xform --owner --group --mode --mtime --strip-components --suffix --index-file --volno-file --record-size --quoting-style --sort --warning',
    ),
    optionalValues: ['--checkpoint', '--backup', '--occurrence'],
    abbreviates: true,
    oldStyle: true,
    rows: [
      {
        kind: 'option',
        options: ['--to-command'],
        payload: 'shell',
        reason: 'runs a program for every file it extracts',
      },
      {
        kind: 'option',
        options: ['-I', '--use-compress-program'],
        payload: 'shell',
        reason: 'runs another program to compress or expand the archive',
      },
      {
        kind: 'option',
        options: ['--checkpoint-action'],
        payload: 'setting',
        reason: 'runs actions at checkpoints (exec=COMMAND runs a program)',
      },
      {
        kind: 'option',
        options: ['-F', '--info-script', '--new-volume-script'],
        payload: 'shell',
        reason: 'runs a program at the end of each volume',
      },
      {
        kind: 'option',
        options: ['--rsh-command', '--rmt-command'],
        payload: 'shell',
        reason: 'runs another program to reach a remote archive',
      },
      {
        kind: 'option',
        options: ['-f', '--file'],
        value: /^[^/]*:/,
        unless: ['--force-local'],
        reason: 'treats HOST:FILE as a remote archive and runs a remote shell to reach it',
      },
      {
        kind: 'option',
        options: ['-P', '--absolute-names'],
        reason: 'writes outside the current folder (absolute and ../ names)',
      },
    ],
  },
  {
    names: ['zip'],
    values: ['-b', '-n', '-t', '-tt', '-x', '-i', '-P', '--password', '-O', '--output-file', '-Z'],
    rows: [
      {
        kind: 'option',
        options: ['-TT', '--unzip-command'],
        payload: 'shell',
        reason: 'runs another program to test the archive',
      },
    ],
  },
];
