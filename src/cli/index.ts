import { describeCode } from '../codes.js';
import { SkillhostError } from '../errors.js';
import { suggest, withSuggestions } from '../suggest.js';
import { UsageError } from './args.js';
import { COMMANDS, findCommand } from './commands.js';
import type { CliDeps, CliIO } from './io.js';
import { guardOutput, printable } from './printable.js';
import { VERSION } from './version.js';

export type { CliDeps, CliIO, CliStream } from './io.js';
export { VERSION } from './version.js';

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  const commands = COMMANDS.map(
    (command) => `  ${command.name.padEnd(width)}  ${command.summary}`,
  ).join('\n');
  return `Usage: skillhost <command> [options]

A safe, fast runtime for Agent Skills.

Commands:
${commands}

Options:
  -h, --help      Show help (also: skillhost <command> --help)
  -V, --version   Print the version

Run 'skillhost <command> --help' for the options and exit codes of a command.`;
}

/**
 * The whole command line as a function: parses `argv` (without the node and script paths),
 * writes to `io`, touches the world only through `deps`, and returns the exit code.
 */
export async function cli(
  argv: readonly string[],
  unguarded: CliIO,
  deps: CliDeps,
): Promise<number> {
  // Every write of every command, whatever it prints, is made safe for a terminal here.
  const io = guardOutput(unguarded);
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    if (first === 'help' && rest[0] !== undefined) {
      const command = findCommand(rest[0]);
      if (command === undefined) return usage(io, unknownCommand(rest[0]));
      io.stdout.write(`${command.help}\n`);
      return 0;
    }
    io.stdout.write(`${mainHelp()}\n`);
    return first === undefined ? 2 : 0;
  }
  if (first === '-V' || first === '--version') {
    io.stdout.write(`skillhost ${VERSION}\n`);
    return 0;
  }
  const command = findCommand(first);
  if (command === undefined) {
    return usage(
      io,
      first.startsWith('-')
        ? withSuggestions(`unknown option '${first}'`, suggest(first, ['--help', '--version']))
        : unknownCommand(first),
    );
  }
  if (rest.includes('-h') || rest.includes('--help')) {
    const end = rest.indexOf('--');
    const helpIndex = Math.max(rest.indexOf('-h'), rest.indexOf('--help'));
    if (end === -1 || helpIndex < end) {
      io.stdout.write(`${command.help}\n`);
      return 0;
    }
  }
  try {
    const module = await command.load();
    return await module.run({ argv: rest, io, deps });
  } catch (error) {
    if (error instanceof UsageError) return usage(io, error.message, command.name);
    if (SkillhostError.isInstance(error)) {
      const hint = describeCode(error.code).hint;
      io.stderr.write(
        `skillhost: error ${error.code}: ${printable(error.message)}\n  = hint: ${hint}\n`,
      );
      return error.code === 'USAGE' || error.code === 'CONFIG_INVALID' ? 2 : 1;
    }
    throw error;
  }
}

function unknownCommand(name: string): string {
  return withSuggestions(
    `unknown command '${name}'`,
    suggest(
      name,
      COMMANDS.map((entry) => entry.name),
    ),
  );
}

function usage(io: CliIO, message: string, command?: string): number {
  const help = command === undefined ? 'skillhost --help' : `skillhost ${command} --help`;
  io.stderr.write(`skillhost: error: ${message}\nRun '${help}' for usage.\n`);
  return 2;
}
