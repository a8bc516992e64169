#!/usr/bin/env node
// The executable: real streams and the real world, then the CLI function. Kept to the modules
// --help and --version need; each command loads the library when it runs.
import { createNodeCliDeps, createTerminalInput, prepareCliProcess } from './host/deps.js';
import { cli } from './index.js';

prepareCliProcess(process.argv.slice(2));

const io = { stdout: process.stdout, stderr: process.stderr, stdin: createTerminalInput() };

process.exitCode = await cli(process.argv.slice(2), io, createNodeCliDeps());

// The MCP server has closed its transport and ended its audit session by now. It exits at once,
// with its signal handlers still in place: the environment's teardown would first set SIGINT and
// SIGTERM back to their default action, and a client's second signal landing then would kill it
// (130, 143); nor may a handle a client left half-open keep it running. Its standard streams are
// pipes or files, written synchronously: nothing is lost.
if (process.argv[2] === 'mcp') process.exit();
