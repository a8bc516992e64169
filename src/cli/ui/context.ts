import type { ParsedArgs } from '../args.js';
import type { CliDeps } from '../io.js';

/** What every page is made from: the command's options (sources, policy, audit log), the world, the token. */
export interface UiContext {
  readonly args: ParsedArgs;
  readonly deps: CliDeps;
  readonly token: string;
}
