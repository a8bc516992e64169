/** Small POSIX path helpers for the core, which may not import node:path. */

/** `/SKILL.md`, kept once: every skill's file path is its directory and this (one join, not two). */
const SLASH_SKILL_FILE = '/SKILL.md';

export function joinPath(base: string, name: string): string {
  if (name === '') return base;
  if (base.endsWith('/')) return `${base}${name}`;
  return name === 'SKILL.md' ? base + SLASH_SKILL_FILE : `${base}/${name}`;
}

export function baseName(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end -= 1;
  const slash = path.lastIndexOf('/', end - 1);
  return path.slice(slash + 1, end);
}

export function parentPath(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end -= 1;
  const slash = path.lastIndexOf('/', end - 1);
  if (slash <= 0) return slash === 0 ? '/' : '.';
  return path.slice(0, slash);
}

/** True when `child` is `parent` or lies below it, comparing whole path segments. */
export function isWithinPath(parent: string, child: string): boolean {
  if (child === parent) return true;
  const base = parent.endsWith('/') ? parent : `${parent}/`;
  return child.startsWith(base);
}
