import type { ContentHasher, ScriptInterpreter, SkillFileSystem } from '../deps.js';
import { checkResourcePath } from '../disclosure/resources.js';
import { SkillhostError } from '../errors.js';
import { decodeSkillText } from '../format/text.js';
import { isWithinPath, joinPath } from '../paths.js';
import { quote } from '../quote.js';
import type { RegistryEntry } from '../registry/registry.js';

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

/** A script checked and read: its normalised path, the exact bytes, their hash, the interpreter. */
export interface LoadedScript {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly contentHash: string;
  readonly interpreter: ScriptInterpreter;
}

/**
 * Checks and reads a script of an active skill, throwing a coded SkillhostError for anything
 * that may not run: a path that is not plain or not under scripts/ (also through links), NUL in
 * an argument, a file that is not a regular UTF-8 text file within 1 MiB, a hard-linked file of
 * an untrusted skill, an interpreter outside the allowlist. The bytes returned are the ones that
 * were checked and hashed: they are what runs.
 */
export function loadScript(
  fs: SkillFileSystem,
  hash: ContentHasher,
  entry: RegistryEntry,
  script: string,
  args: readonly string[],
): LoadedScript {
  const check = checkResourcePath(script);
  if (!check.ok)
    throw new SkillhostError(
      'RESOURCE_PATH_INVALID',
      `Script path ${quote(script)} is refused: ${check.reason}`,
    );
  const path = check.path;
  if (!path.startsWith('scripts/')) {
    throw new SkillhostError(
      'SCRIPT_OUTSIDE_SCRIPTS',
      `Only files under scripts/ can run, not ${JSON.stringify(path)}`,
    );
  }
  if (args.some((argument) => typeof argument !== 'string' || argument.includes('\u0000'))) {
    throw new SkillhostError('SCRIPT_ARGUMENT_INVALID', 'A script argument holds a NUL character');
  }
  const read = fs.readFileWithin(entry.directory, path, { maxBytes: 1024 * 1024 });
  if (!read.ok) {
    const code =
      read.problem === 'missing' || read.problem === 'symlink-broken'
        ? 'SCRIPT_NOT_FOUND'
        : read.problem === 'symlink-escape'
          ? 'RESOURCE_OUTSIDE_SKILL'
          : read.problem === 'too-large'
            ? 'RESOURCE_TOO_LARGE'
            : read.problem === 'not-regular'
              ? 'RESOURCE_NOT_REGULAR'
              : 'RESOURCE_UNREADABLE';
    throw new SkillhostError(code, `Script ${path} of ${entry.address}: ${read.message}`);
  }
  // A link may point anywhere inside the skill as far as reading goes, but only a file that
  // really is under scripts/ may run.
  const realScripts = fs.realPath(joinPath(entry.directory, 'scripts'));
  const realScript = fs.realPath(joinPath(entry.directory, path));
  if (
    realScripts === undefined ||
    realScript === undefined ||
    realScript === realScripts ||
    !isWithinPath(realScripts, realScript)
  ) {
    throw new SkillhostError(
      'SCRIPT_OUTSIDE_SCRIPTS',
      `Script ${path} of ${entry.address} leads outside its scripts/ folder`,
    );
  }
  if (entry.source.trust === 'untrusted' && read.status.links > 1) {
    throw new SkillhostError(
      'RESOURCE_HARD_LINK',
      `Script ${path} of ${entry.address} has other hard links and the skill is untrusted`,
    );
  }
  const bytes = Uint8Array.from(read.bytes);
  const text = decodeSkillText(bytes, path).text;
  if (text === undefined)
    throw new SkillhostError(
      'SCRIPT_NOT_TEXT',
      `Script ${path} of ${entry.address} is not UTF-8 text`,
    );
  const interpreter = scriptInterpreter(path, text);
  if (interpreter === undefined) {
    throw new SkillhostError(
      'SCRIPT_INTERPRETER_UNKNOWN',
      `No allowed interpreter (sh, bash, python3, node) runs ${path}`,
    );
  }
  return { path, bytes, contentHash: hash(bytes), interpreter };
}
