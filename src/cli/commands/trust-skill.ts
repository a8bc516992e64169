import { hasDifferences } from '../../internal.js';
import {
  compareFiles,
  hashSkillFolder,
  isExternalSource,
  SkillhostError,
  treeDigest,
} from '../../node/index.js';
import { printable } from '../format.js';
import { findInstalled } from '../installed.js';
import type { CliDeps, CliIO } from '../io.js';
import { configFile } from '../registry-options.js';

/**
 * `skillhost trust --skill NAME [--revoke]`: trusts (or stops trusting) an installed skill from
 * a source outside the user's control, for the files its lockfile entry records.
 */
export function trustSkill(name: string, revoke: boolean, io: CliIO, deps: CliDeps): number {
  const path = configFile(deps);
  const config = deps.readConfig(path);
  const found = findInstalled(name, deps);
  if (found === undefined)
    throw new SkillhostError(
      'SKILL_NOT_INSTALLED',
      `No skill named ${JSON.stringify(printable(name))} in the project's or your skills-lock.json`,
    );
  const { directory, entry } = found;
  const real = deps.fs.realPath(directory) ?? directory;
  const others = (config.trustedSkills ?? []).filter(
    (trusted) => trusted.directory !== real && trusted.directory !== directory,
  );
  if (revoke) {
    deps.writeConfig(path, { ...config, trustedSkills: others });
    io.stdout.write(`No longer trusted: ${printable(name)} (${printable(directory)})\n`);
    return 0;
  }
  if (!isExternalSource(entry.source)) {
    io.stdout.write(
      `${printable(name)} comes from a folder of yours: it has the trust of the folder it is installed in.\n`,
    );
    return 0;
  }
  const files = hashSkillFolder(directory);
  if (files === undefined || hasDifferences(compareFiles(entry.files, files)))
    throw new SkillhostError(
      'SKILL_MODIFIED',
      `${directory} is missing or differs from what skills-lock.json records: run skillhost install first`,
    );
  const contentHash = treeDigest(entry.files, deps.hash);
  deps.writeConfig(path, {
    ...config,
    trustedSkills: [...others, { skill: name, directory: real, contentHash }],
  });
  io.stdout.write(
    `Trusted: ${printable(name)} (${printable(directory)}, sha256 ${contentHash.slice(0, 12)}…) as skills-lock.json records it; an update makes it ask again.\n`,
  );
  return 0;
}
