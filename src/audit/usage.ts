import type { AuditRecord } from './trail.js';

/** How often and how lately a skill was activated, from audit records. */
export interface RecordedUsage {
  readonly uses: number;
  /** The time of its last activation (ISO 8601). */
  readonly lastUsed: string;
}

/**
 * Counts the activations recorded for each skill name (a repeated activation of a skill already
 * active, and a refused one, do not count): what a catalog under a budget ranks skills by
 * (`CatalogOptions.usage`).
 *
 * @example countSkillUsage(parseAuditLog(text).records).get('pdf') // { uses: 3, lastUsed: '2026-…' }
 */
export function countSkillUsage(records: Iterable<AuditRecord>): Map<string, RecordedUsage> {
  const usage = new Map<string, RecordedUsage>();
  for (const record of records) {
    if (record.event !== 'skill-activate' || record.error !== null || record.skill_name === null)
      continue;
    if ((record.details as { already_active?: unknown }).already_active === true) continue;
    const before = usage.get(record.skill_name);
    usage.set(record.skill_name, {
      uses: (before?.uses ?? 0) + 1,
      lastUsed:
        before === undefined || record.timestamp > before.lastUsed
          ? record.timestamp
          : before.lastUsed,
    });
  }
  return usage;
}
