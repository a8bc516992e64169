import type { CliDeps, CliIO } from './io.js';

export interface CommandContext {
  readonly argv: readonly string[];
  readonly io: CliIO;
  readonly deps: CliDeps;
}

/** A command module: runs with the arguments after its name and returns the exit code. */
export interface CommandModule {
  run(context: CommandContext): Promise<number> | number;
}

export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly help: string;
  readonly load: () => Promise<CommandModule>;
}
