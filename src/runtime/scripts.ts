import type { ScriptInterpreter } from '../deps.js';

const byExtension: Readonly<Record<string, ScriptInterpreter>> = {
  sh: 'sh',
  bash: 'bash',
  py: 'python3',
  js: 'node',
  mjs: 'node',
  cjs: 'node',
};

const byProgram: Readonly<Record<string, ScriptInterpreter>> = {
  sh: 'sh',
  bash: 'bash',
  python3: 'python3',
  python: 'python3',
  node: 'node',
  nodejs: 'node',
};

/**
 * The interpreter for a script, from the allowlist only: by its `#!` line (the program's base
 * name, through `/usr/bin/env` too; arguments on the line are ignored), else by its extension.
 */
export function scriptInterpreter(path: string, text: string): ScriptInterpreter | undefined {
  if (text.startsWith('#!')) {
    const line = text.slice(2, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n')).trim();
    const words = line.split(/\s+/);
    let program = words[0] ?? '';
    if (program.endsWith('/env'))
      program = words.slice(1).find((word) => !word.startsWith('-')) ?? '';
    const name = program.slice(program.lastIndexOf('/') + 1);
    return byProgram[name];
  }
  const dot = path.lastIndexOf('.');
  return dot === -1 ? undefined : byExtension[path.slice(dot + 1).toLowerCase()];
}
