import { baseName, isWithinPath, joinPath, parentPath } from '../paths.js';
import { readSkillRecord, type SkillRecord, type SourceScan } from './discover.js';
import { sameIdentity } from './identity.js';
import type { Rescan, RescanInputs, TouchedRecord } from './refresh.js';

/**
 * The skill records a changed path can affect, or undefined when the path could change what is
 * found (a folder searched for skills, a skill directory itself, a root, a path under no source
 * or unknown): then only a full scan is right. A path below a skill directory's own sub-folders
 * is a resource, which the registry never reads (a skill is a leaf): it affects nothing.
 */
function affected(scans: readonly SourceScan[], path: string, into: Set<SkillRecord>): boolean {
  let underSource = false;
  for (const scan of scans) {
    const { root } = scan.source;
    if (!isWithinPath(root, path)) continue;
    underSource = true;
    let directory = path;
    let below: string | undefined;
    for (;;) {
      const skill = scan.skills.get(directory);
      if (skill !== undefined) {
        // The skill directory itself came, went or was replaced.
        if (below === undefined) return false;
        if (below === path) {
          const name = baseName(path);
          if (name === skill.skillFileName) into.add(skill);
          // Another spelling of the skill file may now decide which file is the skill's.
          else if (name.toLowerCase() === 'skill.md') return false;
        }
        break;
      }
      if (directory === root || scan.directories.has(directory)) return false;
      const parent = parentPath(directory);
      if (parent === directory || !isWithinPath(root, parent)) return false;
      below = directory;
      directory = parent;
    }
  }
  return underSource;
}

/**
 * Re-checks only the skill files that `changed` (paths a watcher reported) can affect, instead
 * of every file of every source. Returns undefined when that cannot be right (see `affected`; a
 * skill file gone or no longer a regular file): the caller then scans everything.
 */
export function rescanChanged(
  previous: readonly SourceScan[],
  changed: Iterable<string>,
  inputs: RescanInputs,
): Rescan | undefined {
  if (previous.length !== inputs.sources.length) return undefined;
  for (let index = 0; index < previous.length; index += 1)
    if (previous[index]?.source !== inputs.sources[index]) return undefined;
  const records = new Set<SkillRecord>();
  for (const path of changed) if (!affected(previous, path, records)) return undefined;
  const { fs, strings } = inputs;
  const context = {
    strings,
    ...(inputs.discovery.limits === undefined ? {} : { limits: inputs.discovery.limits }),
    ...(inputs.yaml === undefined ? {} : { yaml: inputs.yaml }),
  };
  const touched: TouchedRecord[] = [];
  const changedSources: string[] = [];
  let read = 0;
  let reused = 0;
  const scans = previous.map((scan) => {
    reused += scan.skills.size;
    let skills: Map<string, SkillRecord> | undefined;
    let readCount = 0;
    for (const record of scan.skills.values()) {
      if (!records.has(record)) continue;
      const file = joinPath(record.directory, record.skillFileName);
      const current = fs.status(file, false);
      if (current === undefined || current.kind !== 'file') return undefined;
      if (sameIdentity(record.identity, current)) continue;
      const fresh = readSkillRecord(
        fs,
        {
          directory: record.directory,
          realDirectory: record.realDirectory,
          skillFileName: record.skillFileName,
          skillFileKind: 'file',
        },
        context,
      );
      skills ??= new Map(scan.skills);
      skills.set(record.directory, fresh);
      touched.push({ before: record, after: fresh });
      readCount += 1;
    }
    read += readCount;
    reused -= readCount;
    if (skills === undefined) return scan;
    changedSources.push(scan.source.id);
    return { ...scan, skills, readCount, listCount: 0 };
  });
  if (scans.some((scan) => scan === undefined)) return undefined;
  return {
    scans: scans as SourceScan[],
    stats: { read, reused, cachedSources: 0 },
    changedSources,
    anyChange: changedSources.length > 0,
    structural: false,
    touched,
  };
}
