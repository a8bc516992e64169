import { lstatSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A git config larger than this is not read (it is still protected when it is in .git). */
const MAX_CONFIG_BYTES = 256 * 1024;

/** The `[section "sub"] key = value` entries of a git config file (lower-case section and key). */
export function gitConfigEntries(
  text: string,
): Array<{ readonly section: string; readonly key: string; readonly value: string }> {
  const entries: Array<{ section: string; key: string; value: string }> = [];
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    if (header !== null) {
      section = (header[1] ?? '').toLowerCase();
      // `[section.sub]` is the old form of `[section "sub"]`: the key is what matters here.
      if (section.includes('.')) section = section.slice(0, section.indexOf('.'));
      line = (header[3] ?? '').trim();
      if (line === '') continue;
    }
    const match = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (match === null) continue;
    entries.push({
      section,
      key: (match[1] ?? '').toLowerCase(),
      value: configValue(match[2] ?? 'true'),
    });
  }
  return entries;
}

/** A value without its comment, quotes and escapes. */
function configValue(text: string): string {
  let value = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] as string;
    if (character === '\\' && index + 1 < text.length) {
      index += 1;
      const next = text[index] as string;
      value += next === 'n' ? '\n' : next === 't' ? '\t' : next;
    } else if (character === '"') quoted = !quoted;
    else if (!quoted && (character === '#' || character === ';')) break;
    else value += character;
  }
  return value.trim();
}

function readConfig(path: string): string | undefined {
  try {
    const status = lstatSync(path);
    if (!status.isFile() || status.size > MAX_CONFIG_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The repository folder a `.git` file points to (worktrees, submodules), or the `.git` folder. */
function gitDirectories(workspace: string): string[] {
  const dotGit = join(workspace, '.git');
  let status: ReturnType<typeof lstatSync> | undefined;
  try {
    status = lstatSync(dotGit);
  } catch {
    return [];
  }
  let gitDir = dotGit;
  if (status.isFile()) {
    const pointer = /^gitdir:\s*(.+)$/m.exec(readConfig(dotGit) ?? '');
    if (pointer === null) return [];
    gitDir = resolve(workspace, (pointer[1] as string).trim());
  } else if (!status.isDirectory()) return [];
  const common = readConfig(join(gitDir, 'commondir'))?.trim();
  return common === undefined || common === '' ? [gitDir] : [gitDir, resolve(gitDir, common)];
}

/**
 * Paths inside the workspace that git would run or obey, read from the git configuration that
 * applies to it (the repository's, the user's, the system's): `core.hooksPath` (hooks run on
 * commit, checkout, push...) and included config files (`include.path`, `includeIf.*.path`),
 * which may set commands of their own (`core.fsmonitor`, `core.sshCommand`, filters...).
 * Relative to the workspace; what lies outside it is not the sandbox's to protect.
 */
export function gitCodePaths(workspace: string, homeDir: string | undefined): string[] {
  const configs: string[] = gitDirectories(workspace).map((folder) => join(folder, 'config'));
  if (homeDir !== undefined)
    configs.push(join(homeDir, '.gitconfig'), join(homeDir, '.config', 'git', 'config'));
  configs.push('/etc/gitconfig');
  const found = new Set<string>();
  const seen = new Set<string>();
  const inside = (path: string) => {
    const part = relative(workspace, path);
    if (part !== '' && part !== '..' && !part.startsWith(`..${sep}`) && !isAbsolute(part))
      found.add(part.split(sep).join('/'));
  };
  // Included files can include more: follow them, each once.
  while (configs.length > 0) {
    const config = configs.shift() as string;
    if (seen.has(config) || seen.size > 32) continue;
    seen.add(config);
    inside(config);
    const text = readConfig(config);
    if (text === undefined) continue;
    for (const { section, key, value } of gitConfigEntries(text)) {
      if (value === '' || value.startsWith('~')) continue;
      if (section === 'core' && key === 'hookspath')
        inside(isAbsolute(value) ? value : resolve(workspace, value));
      if ((section === 'include' || section === 'includeif') && key === 'path') {
        const included = isAbsolute(value) ? value : resolve(dirname(config), value);
        configs.push(included);
      }
    }
  }
  return [...found].sort();
}
