import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { SkillhostError } from '../errors.js';
import { PACKAGE_FILE, REQUIREMENTS_FILE } from './skill-environment.js';

/**
 * What a skill declares it needs, read and checked before anything is installed: the lines of
 * `scripts/requirements.txt` (and the files it includes), the packages of `scripts/package.json`.
 * Unless package build scripts are allowed, a declaration that would make an installer run the
 * package's own code on this machine is refused: for pip, anything but a wheel (an editable
 * install, a version-control URL, a source folder or archive, `--no-binary`); for npm, a git
 * dependency (npm prepares those by running their scripts).
 */

const MAX_INCLUDES = 20;

/** The declared dependencies, as the user is shown them, and the files they were read from. */
export interface DeclaredDependencies {
  /** Requirement lines (options included), in the order pip reads them. */
  readonly python?: readonly string[];
  /** `name@spec` of each Node dependency; the lockfile, when the skill ships one. */
  readonly node?: { readonly packages: readonly string[]; readonly lockfile: string | undefined };
  /** SHA-256 of each file read, by its path in the skill: the copy installed from must match. */
  readonly files: Readonly<Record<string, string>>;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

function refuse(file: string, line: number | undefined, why: string): never {
  throw new SkillhostError(
    'SETUP_REFUSED',
    `${file}${line === undefined ? '' : `:${line}`}: ${why}; it would run the package's own code on this machine, outside the sandbox. Run skillhost setup with --allow-scripts to allow it`,
  );
}

/** A requirement that pip would build from source: a folder, an archive, a VCS or non-wheel URL. */
function buildsFromSource(requirement: string): boolean {
  const spec = requirement.replace(/\s*;.*$/, '').trim();
  if (/^(git|hg|svn|bzr)\+/i.test(spec) || /@\s*(git|hg|svn|bzr)\+/i.test(spec)) return true;
  const reference = /@\s*(\S+)$/.exec(spec)?.[1] ?? spec;
  const isLocation =
    /^[.~/]/.test(reference) || /^file:/i.test(reference) || reference.includes('://');
  if (!isLocation) return false;
  return !/\.whl(#.*)?$/i.test(reference.replace(/\?.*$/, ''));
}

/** The logical lines of a requirements file: continuations joined, comments removed. */
function logicalLines(text: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let pending = '';
  let start = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    if (pending === '') start = index + 1;
    const joined = pending + raw;
    if (joined.endsWith('\\')) {
      pending = joined.slice(0, -1);
      return;
    }
    pending = '';
    const clean = joined.replace(/(^|\s)#.*$/, '').trim();
    if (clean !== '') lines.push({ text: clean, line: start });
  });
  return lines;
}

function readRequirements(
  skill: string,
  file: string,
  allowScripts: boolean,
  found: { lines: string[]; files: Record<string, string> },
): void {
  const shown = relative(skill, file);
  if (Object.keys(found.files).length >= MAX_INCLUDES)
    refuse(shown, undefined, `more than ${MAX_INCLUDES} requirement files are included`);
  if (found.files[shown] !== undefined) return;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new SkillhostError('SETUP_REFUSED', `${shown} cannot be read`);
  }
  found.files[shown] = digest(text);
  for (const { text: entry, line } of logicalLines(text)) {
    const include = /^(-r|--requirement|-c|--constraint)(?:\s+|=)(.+)$/.exec(entry);
    if (include !== null) {
      const target = resolve(dirname(file), (include[2] as string).trim());
      const inside = relative(skill, target);
      if (inside.startsWith(`..${sep}`) || inside === '..' || inside.startsWith(sep))
        throw new SkillhostError(
          'SETUP_REFUSED',
          `${shown}:${line}: ${include[2]} is outside the skill; a skill's requirements must be its own files`,
        );
      readRequirements(skill, target, allowScripts, found);
      continue;
    }
    found.lines.push(entry);
    if (allowScripts) continue;
    if (/^(-e|--editable)(\s|=|$)/.test(entry))
      refuse(shown, line, `${entry} is an editable install`);
    if (/^--no-binary(\s|=|$)/.test(entry)) refuse(shown, line, `${entry} asks for source builds`);
    if (!entry.startsWith('-') && buildsFromSource(entry))
      refuse(shown, line, `${entry} is not a wheel: pip would build it from source`);
  }
}

/** A Node dependency that npm fetches with git (and prepares by running its scripts). */
function isGitSpec(spec: string): boolean {
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|gist:)/i.test(spec)) return true;
  // GitHub's shorthand, user/repo (not a path, a URL, an alias, nor a scope's package).
  return /^[A-Za-z0-9][\w.-]*\/[\w.-]+(#.*)?$/.test(spec);
}

function readPackage(
  skill: string,
  allowScripts: boolean,
  files: Record<string, string>,
): { packages: string[]; lockfile: string | undefined } {
  const manifestPath = join(skill, PACKAGE_FILE);
  let manifest: Record<string, unknown>;
  try {
    const text = readFileSync(manifestPath, 'utf8');
    files[PACKAGE_FILE] = digest(text);
    manifest = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new SkillhostError(
      'SETUP_REFUSED',
      `${PACKAGE_FILE} is not a readable JSON object: ${(error as Error).message}`,
    );
  }
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest))
    throw new SkillhostError('SETUP_REFUSED', `${PACKAGE_FILE} is not a JSON object`);
  const packages: string[] = [];
  for (const field of [
    'dependencies',
    'optionalDependencies',
    'devDependencies',
    'peerDependencies',
  ]) {
    const group = manifest[field];
    if (group === undefined) continue;
    if (group === null || typeof group !== 'object' || Array.isArray(group))
      throw new SkillhostError('SETUP_REFUSED', `${PACKAGE_FILE}: ${field} is not an object`);
    for (const [name, spec] of Object.entries(group as Record<string, unknown>)) {
      if (typeof spec !== 'string')
        throw new SkillhostError(
          'SETUP_REFUSED',
          `${PACKAGE_FILE}: ${field}.${name} is not a version string`,
        );
      if (!allowScripts && isGitSpec(spec))
        refuse(PACKAGE_FILE, undefined, `${field}.${name} (${spec}) is a git dependency`);
      if (field !== 'peerDependencies') packages.push(`${name}@${spec}`);
    }
  }
  let lockfile: string | undefined;
  for (const name of ['npm-shrinkwrap.json', 'package-lock.json']) {
    const path = `scripts/${name}`;
    let text: string;
    try {
      text = readFileSync(join(skill, path), 'utf8');
    } catch {
      continue;
    }
    files[path] = digest(text);
    lockfile = path;
    if (!allowScripts && /"resolved"\s*:\s*"git(\+|:)/.test(text))
      refuse(path, undefined, 'it locks a git dependency');
    break;
  }
  return { packages, lockfile };
}

/**
 * Reads and checks what a skill declares (`scripts/requirements.txt`, `scripts/package.json`),
 * throwing SETUP_REFUSED (file and line) for what would run package code unless `allowScripts`.
 */
export function declaredDependencies(
  skillDirectory: string,
  kinds: readonly ('python' | 'node')[],
  allowScripts: boolean,
): DeclaredDependencies {
  const files: Record<string, string> = {};
  let python: string[] | undefined;
  let node: { packages: string[]; lockfile: string | undefined } | undefined;
  if (kinds.includes('python')) {
    const found = { lines: [] as string[], files };
    readRequirements(skillDirectory, join(skillDirectory, REQUIREMENTS_FILE), allowScripts, found);
    python = found.lines;
  }
  if (kinds.includes('node')) node = readPackage(skillDirectory, allowScripts, files);
  return {
    ...(python === undefined ? {} : { python }),
    ...(node === undefined ? {} : { node }),
    files,
  };
}
