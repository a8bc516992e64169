#!/usr/bin/env node
// The executable: keeps compiled code for the next start (Node's compile cache from 22.1, the
// command line's own before: host/code-cache.ts) and sets V8 up for the command, both before any
// other module is compiled, then runs the command line (main.ts). The built bin is a CommonJS
// script (scripts/bundle-cli.mjs): no top-level await here.
import { codeCacheFolder, requireWithCodeCache } from './host/code-cache.js';
import { enableCompileCache, prepareCliProcess, stopOnBrokenPipe } from './host/start.js';

type CommandLine = typeof import('./main.js');

const argv = process.argv.slice(2);
const nodeCaches = enableCompileCache();
stopOnBrokenPipe(process.stdout);
const tuned = prepareCliProcess(argv);
const commandLine: Promise<CommandLine> = nodeCaches
  ? import('./main.js')
  : Promise.resolve(
      requireWithCodeCache(
        new URL('./chunks/main.js', import.meta.url),
        codeCacheFolder(process.env, tuned),
        (specifier) => import(specifier),
      ) as CommandLine,
    );
// A rejection that escapes is a fault of skillhost's own: Node prints it and exits 1.
void commandLine.then(({ main }) => main(argv));
