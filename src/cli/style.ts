import type { CliDeps, CliStream } from './io.js';

export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
}

function wrap(enabled: boolean, open: number, close: number): (text: string) => string {
  return enabled ? (text) => `\u001b[${open}m${text}\u001b[${close}m` : (text) => text;
}

/** Colour only on a terminal; NO_COLOR turns it off and FORCE_COLOR on. */
export function createStyle(stream: CliStream, env: CliDeps['env']): Style {
  const force = env.FORCE_COLOR;
  const enabled =
    force !== undefined && force !== '' && force !== '0'
      ? true
      : env.NO_COLOR !== undefined && env.NO_COLOR !== ''
        ? false
        : stream.isTTY === true && env.TERM !== 'dumb';
  return {
    enabled,
    bold: wrap(enabled, 1, 22),
    dim: wrap(enabled, 2, 22),
    red: wrap(enabled, 31, 39),
    yellow: wrap(enabled, 33, 39),
    green: wrap(enabled, 32, 39),
    cyan: wrap(enabled, 36, 39),
  };
}
