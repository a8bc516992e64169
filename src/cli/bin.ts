#!/usr/bin/env node
// The executable: real streams and the real world, then the CLI function. Every module is
// imported when this file runs, not before, so that `--version` loads nothing else, and the
// module compile cache (Node 22.1 and later) is on before the first of them is compiled.
import { enableCompileCache, stopOnBrokenPipe } from './host/start.js';

const argv = process.argv.slice(2);
enableCompileCache();
stopOnBrokenPipe(process.stdout);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { VERSION } = await import('./version.js');
  process.stdout.write(`skillhost ${VERSION}\n`);
} else {
  const { createNodeCliDeps, createTerminalInput, prepareCliProcess } = await import(
    './host/deps.js'
  );
  const { cli } = await import('./index.js');
  prepareCliProcess(argv);
  stopOnBrokenPipe(process.stderr);
  const io = { stdout: process.stdout, stderr: process.stderr, stdin: createTerminalInput() };
  process.exitCode = await cli(argv, io, createNodeCliDeps());

  // The MCP server has closed its transport and ended its audit session by now. It exits at
  // once, with its signal handlers still in place: the environment's teardown would first set
  // SIGINT and SIGTERM back to their default action, and a client's second signal landing then
  // would kill it (130, 143); nor may a handle a client left half-open keep it running. Its
  // standard streams are pipes or files, written synchronously: nothing is lost.
  if (argv[0] === 'mcp') process.exit();
}
