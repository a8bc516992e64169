#!/usr/bin/env node
// The executable: real streams and the real world, then the CLI function. Kept to the modules
// --help and --version need; each command loads the library when it runs.
import { createNodeCliDeps, createTerminalInput, prepareCliProcess } from './host/deps.js';
import { cli } from './index.js';

prepareCliProcess(process.argv.slice(2));

const io = { stdout: process.stdout, stderr: process.stderr, stdin: createTerminalInput() };

process.exitCode = await cli(process.argv.slice(2), io, createNodeCliDeps());
