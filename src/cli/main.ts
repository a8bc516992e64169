import { stopOnBrokenPipe } from './host/start.js';
import type { CliStream } from './io.js';

/**
 * A stream made the first time it is used. Standard error is, for most commands, never written:
 * on a pipe, Node would build a socket for it (and load its network module) at start.
 */
function whenUsed(make: () => NodeJS.WriteStream): CliStream {
  let stream: NodeJS.WriteStream | undefined;
  const get = () => {
    stream ??= make();
    return stream;
  };
  return {
    write: (text) => get().write(text),
    once: (event, listener) => get().once(event, listener),
    get isTTY() {
      return get().isTTY;
    },
    get columns() {
      return get().columns;
    },
  };
}

/**
 * The command line with the real streams and the real world: runs the command `argv` names and
 * sets the exit code. The bin (bin.ts) calls it once the code cache and V8's settings are set.
 */
export async function main(argv: readonly string[]): Promise<void> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    const { VERSION } = await import('./version.js');
    process.stdout.write(`skillhost ${VERSION}\n`);
    return;
  }
  const { createNodeCliDeps, createTerminalInput } = await import('./host/deps.js');
  const { cli } = await import('./index.js');
  const io = {
    stdout: process.stdout,
    stderr: whenUsed(() => {
      stopOnBrokenPipe(process.stderr);
      return process.stderr;
    }),
    stdin: createTerminalInput(),
  };
  process.exitCode = await cli(argv, io, createNodeCliDeps());

  // The MCP server has closed its transport and ended its audit session by now. It exits at
  // once, with its signal handlers still in place: the environment's teardown would first set
  // SIGINT and SIGTERM back to their default action, and a client's second signal landing then
  // would kill it (130, 143); nor may a handle a client left half-open keep it running. Its
  // standard streams are pipes or files, written synchronously: nothing is lost.
  if (argv[0] === 'mcp') process.exit();
}
