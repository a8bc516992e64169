import type { ActiveSkillGrants } from '../policy/engine.js';
import type { SessionOptions } from './types.js';

/** When a session's grants end besides the end of its turn (see `SessionOptions`). */
export type GrantRules = Omit<SessionOptions, 'id'>;

/**
 * The grants in force in one session: the `allowed-tools` pre-approvals of the skills it
 * activated. They end with the turn (`clear`); a session opened with rules also ends them when
 * another skill is activated, or when it has been idle too long (checked at its next call, on the
 * runtime's clock).
 */
export class SessionGrants {
  readonly #grants = new Map<string, ActiveSkillGrants>();
  readonly #rules: GrantRules;
  readonly #now: () => Date;
  #lastCall: number | undefined;

  constructor(rules: GrantRules, now: () => Date) {
    this.#rules = rules;
    this.#now = now;
  }

  get all(): readonly ActiveSkillGrants[] {
    return [...this.#grants.values()];
  }

  /** Puts an activated skill's grants in force (ending the others', by the rules). */
  add(grants: ActiveSkillGrants): void {
    if (this.#rules.grantsEndOnOtherActivation === true) {
      for (const address of this.#grants.keys())
        if (address !== grants.address) this.#grants.delete(address);
    }
    this.#grants.set(grants.address, grants);
  }

  /** Notes a call of the session; the grants end first if it was idle longer than the rules allow. */
  called(): void {
    const idle = this.#rules.grantsIdleMs;
    if (idle === undefined) return;
    const now = this.#now().getTime();
    if (this.#lastCall !== undefined && now - this.#lastCall > idle) this.#grants.clear();
    this.#lastCall = now;
  }

  clear(): void {
    this.#grants.clear();
  }
}
