/**
 * Which skills a catalog under a budget keeps visible first: trusted before untrusted, then
 * those pinned (by the host, the agent or the user's config), then those used most and most
 * recently (counts the host passes in, from its audit log), then by name. The core reads no log
 * and no clock: usage is data.
 */

/** How much a skill was used, as the host counts it (e.g. activations in its audit log). */
export interface SkillUsage {
  /** Activations (or other uses) counted. */
  readonly uses: number;
  /** When it was last used (ISO 8601), if known. */
  readonly lastUsed?: string;
}

/** What ordering needs of a skill. */
export interface RankedSkill {
  readonly name: string;
  readonly trusted: boolean;
  readonly pinned: boolean;
  readonly usage: SkillUsage | undefined;
}

/** Usage by skill name, as a map or a plain record. */
export type UsageTable = ReadonlyMap<string, SkillUsage> | Readonly<Record<string, SkillUsage>>;

export function usageOf(table: UsageTable | undefined, name: string): SkillUsage | undefined {
  if (table === undefined) return undefined;
  if (table instanceof Map) return table.get(name);
  const record = table as Readonly<Record<string, SkillUsage>>;
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

/** Compares two skills by how useful they are: the more useful first. */
export function byUsefulness(a: RankedSkill, b: RankedSkill): number {
  return (
    Number(b.trusted) - Number(a.trusted) ||
    Number(b.pinned) - Number(a.pinned) ||
    (b.usage?.uses ?? 0) - (a.usage?.uses ?? 0) ||
    compareText(b.usage?.lastUsed ?? '', a.usage?.lastUsed ?? '') ||
    compareText(a.name, b.name)
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Why a skill ranks where it does, in words: "trusted, pinned", "untrusted, used 3 times (last …)". */
export function describeRank(skill: RankedSkill): string {
  const parts = [skill.trusted ? 'trusted' : 'untrusted'];
  if (skill.pinned) parts.push('pinned');
  const uses = skill.usage?.uses ?? 0;
  parts.push(
    uses === 0
      ? 'not used yet'
      : `used ${uses} time${uses === 1 ? '' : 's'}${skill.usage?.lastUsed === undefined ? '' : ` (last ${skill.usage.lastUsed.slice(0, 10)})`}`,
  );
  return parts.join(', ');
}
