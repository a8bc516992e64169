import { parseArgs, UsageError } from '../args.js';
import type { CommandContext, CommandEntry } from '../command.js';
import { COMMANDS } from '../commands.js';

/** What the shells complete for one command, read from its own help text. */
export interface CompletionEntry {
  readonly name: string;
  readonly summary: string;
  /** Words that may follow the command name (`show`, `tail`, `verify`, ...). */
  readonly actions: readonly string[];
  /** Every long option its help lists (`--json`, `--no-cache`, ...). */
  readonly options: readonly string[];
}

/**
 * The command table as the shells need it, derived from each command's help: the help is what
 * the README and the tests hold the commands to, so a completion can never offer what --help
 * does not say. Actions come from the `Usage:` lines (`skillhost audit show|tail|verify`),
 * options from the option lines (those that start with `-`).
 */
export function completionTable(commands: readonly CommandEntry[] = COMMANDS): CompletionEntry[] {
  return commands.map((command) => {
    const lines = command.help.split('\n');
    const usage = lines.slice(0, Math.max(1, lines.indexOf('')));
    const actions = new Set<string>();
    const pattern = new RegExp(
      `^(?:Usage:)?\\s*skillhost ${command.name} ([a-z][a-z-]*(?:\\|[a-z][a-z-]*)*)(?=\\s|$)`,
    );
    for (const line of usage) {
      const found = pattern.exec(line)?.[1];
      if (found !== undefined) for (const word of found.split('|')) actions.add(word);
    }
    const options = new Set<string>(['--help']);
    for (const line of lines)
      if (/^\s+-/.test(line))
        for (const match of line.matchAll(/(?:^|[\s,[])(--[a-z][a-z0-9-]*)/g))
          options.add(match[1] as string);
    return {
      name: command.name,
      summary: command.summary,
      actions: [...actions].sort(),
      options: [...options].sort(),
    };
  });
}

function bash(table: readonly CompletionEntry[]): string {
  const cases = table
    .map(
      (entry) => `    ${entry.name}) words="${[...entry.actions, ...entry.options].join(' ')}" ;;`,
    )
    .join('\n');
  return `# bash completion for skillhost (skillhost completion bash)
_skillhost() {
  local current="\${COMP_WORDS[COMP_CWORD]}"
  local words
  if [ "\${COMP_CWORD}" -eq 1 ]; then
    words="${table.map((entry) => entry.name).join(' ')} --help --version"
  else
    case "\${COMP_WORDS[1]}" in
${cases}
    *) words="" ;;
    esac
    if [[ "\${current}" != -* ]]; then
      COMPREPLY=( $(compgen -W "\${words}" -- "\${current}") $(compgen -f -- "\${current}") )
      return 0
    fi
  fi
  COMPREPLY=( $(compgen -W "\${words}" -- "\${current}") )
}
complete -o filenames -F _skillhost skillhost
`;
}

/** A string for zsh's single quotes. */
function zshQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

function zsh(table: readonly CompletionEntry[]): string {
  const commands = table
    .map((entry) => `    ${zshQuote(`${entry.name}:${entry.summary.replace(/:/g, '\\:')}`)}`)
    .join('\n');
  const cases = table
    .map(
      (entry) =>
        `    ${entry.name}) _values -w option ${[...entry.actions, ...entry.options].map((word) => zshQuote(word)).join(' ')} ;;`,
    )
    .join('\n');
  return `#compdef skillhost
# zsh completion for skillhost (skillhost completion zsh)
_skillhost() {
  local -a commands
  commands=(
${commands}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'skillhost command' commands
    return
  fi
  case \${words[2]} in
${cases}
  esac
  _files
}
if [ "\${funcstack[1]}" = "_skillhost" ]; then _skillhost "$@"; else compdef _skillhost skillhost; fi
`;
}

/** A string for fish's single quotes. */
function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function fish(table: readonly CompletionEntry[]): string {
  const lines = [
    '# fish completion for skillhost (skillhost completion fish)',
    'complete -c skillhost -f',
  ];
  for (const entry of table)
    lines.push(
      `complete -c skillhost -n '__fish_use_subcommand' -a ${entry.name} -d ${fishQuote(entry.summary)}`,
    );
  for (const entry of table) {
    const when = `'__fish_seen_subcommand_from ${entry.name}'`;
    if (entry.actions.length > 0)
      lines.push(`complete -c skillhost -n ${when} -a ${fishQuote(entry.actions.join(' '))}`);
    for (const option of entry.options)
      lines.push(`complete -c skillhost -n ${when} -l ${option.slice(2)}`);
    lines.push(`complete -c skillhost -n ${when} -F`);
  }
  return `${lines.join('\n')}\n`;
}

export const SHELLS = { bash, zsh, fish } as const;

/** `skillhost completion bash|zsh|fish`: prints the completion script for the shell. */
export function run({ argv, io }: CommandContext): number {
  const { positionals } = parseArgs(argv, {});
  const shell = positionals[0];
  if (positionals.length !== 1 || (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish'))
    throw new UsageError('completion takes one shell: bash, zsh or fish');
  io.stdout.write(SHELLS[shell](completionTable()));
  return 0;
}
