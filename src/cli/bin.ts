#!/usr/bin/env node
// The executable: turns on the module compile cache (Node 22.1 and later) before any other module
// is compiled, then loads the command line (main.ts). The built bin is a CommonJS script
// (scripts/bundle-cli.mjs): no top-level await here.
import { enableCompileCache, stopOnBrokenPipe } from './host/start.js';

enableCompileCache();
stopOnBrokenPipe(process.stdout);
// A rejection that escapes is a fault of skillhost's own: Node prints it and exits 1.
void import('./main.js').then(({ main }) => main(process.argv.slice(2)));
