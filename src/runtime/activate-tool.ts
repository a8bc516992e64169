import type { Activation, ActivationTrigger } from '../disclosure/activation.js';
import { sanitizeCatalogText } from '../disclosure/sanitize.js';
import { SkillhostError } from '../errors.js';
import { quote } from '../quote.js';
import type { RegistryEntry } from '../registry/registry.js';
import { notFoundError, unavailableError } from '../registry/usable.js';

/**
 * The `skillhost_activate` tool: a skill by name, or by name and the content hash a
 * skills-state stub showed (re-activation after a compaction). The registry is the source of
 * truth: a re-activation reads the skill as it is now, says so when it changed, and refuses
 * with a coded error when it is gone.
 */

/** What the tool needs of the runtime. */
export interface ActivateToolHost {
  offered(): RegistryEntry[];
  /** The copy of a name in scope that exists but cannot be used (skipped, untrusted), if any. */
  unusableCopy(name: string): RegistryEntry | undefined;
  resolve(name: string): RegistryEntry | undefined;
  requestActivation(
    name: string,
    options: { readonly triggeredBy: ActivationTrigger; readonly resend?: boolean },
  ): Promise<Activation>;
  /** Scans the sources again, so that a skill changed or removed since is seen as it is now. */
  refresh(): unknown;
}

/** The longest name looked up. */
export const MAX_SKILL_NAME = 200;

const HEX = /^[0-9a-f]{64}$/;

/**
 * A skill the model may name: one the runtime offers (by name, or a copy's address). One that
 * exists but cannot be used is SKILL_UNAVAILABLE, saying why; any other, SKILL_NOT_FOUND with the
 * closest offered names.
 */
export function inScope(host: Pick<ActivateToolHost, 'offered' | 'unusableCopy'>, skill: string) {
  if (isOffered(host, skill)) return skill;
  const unusable = host.unusableCopy(skill.slice(0, MAX_SKILL_NAME));
  if (unusable !== undefined) throw unavailableError(unusable);
  throw notFoundError(
    skill.slice(0, MAX_SKILL_NAME),
    host.offered().map((entry) => entry.name),
    ' is offered; skillhost_search lists the skills',
  );
}

function isOffered(host: Pick<ActivateToolHost, 'offered'>, skill: string): boolean {
  const bare = skill.includes('@') ? skill.slice(0, skill.indexOf('@')) : skill;
  return host.offered().some((entry) => entry.name === bare);
}

/** A hash as a stub shows it (`HEX` or `sha256:HEX`), lower-cased; TOOL_INPUT_INVALID otherwise. */
export function parseContentHash(text: string): string {
  const hex = text
    .trim()
    .toLowerCase()
    .replace(/^sha256:/, '');
  if (!HEX.test(hex))
    throw new SkillhostError(
      'TOOL_INPUT_INVALID',
      'skillhost_activate: "hash" must be the 64 hexadecimal digits of a SHA-256, as the skills state shows it',
    );
  return hex;
}

/** What the activation result's data says of the skill (an application reads it; the model does not). */
function activationData(activation: Activation, entry: RegistryEntry | undefined) {
  return {
    name: activation.name,
    address: activation.address,
    source: activation.source,
    trust: activation.trust,
    directory: activation.directory,
    contentHash: activation.contentHash ?? null,
    description: sanitizeCatalogText(entry?.metadata?.description ?? '').text,
    alreadyActive: activation.alreadyActive,
    files: activation.files.map((file) => file.path),
  };
}

/** `skillhost_activate { name, hash? }`. */
export async function activateTool(host: ActivateToolHost, name: string, hash: string | undefined) {
  if (hash !== undefined) return reactivate(host, name, parseContentHash(hash));
  const activation = await host.requestActivation(inScope(host, name), { triggeredBy: 'model' });
  return {
    isError: false,
    text: activation.alreadyActive
      ? `Skill ${activation.name} is already active; its instructions are above.`
      : activation.text,
    data: activationData(activation, host.resolve(activation.address)),
  };
}

/**
 * Brings back a skill by the hash it was activated with: the registry is scanned again, then
 * the skill is read as it is now. The same content comes back as it was; changed content comes
 * back with a notice (and, from an untrusted source, only after a new approval: the approval
 * given was for the old content); a skill no longer there is SKILL_REMOVED.
 */
async function reactivate(host: ActivateToolHost, name: string, hash: string) {
  host.refresh();
  if (!isOffered(host, name)) {
    const unusable = host.unusableCopy(name.slice(0, MAX_SKILL_NAME));
    if (unusable !== undefined) throw unavailableError(unusable);
    throw new SkillhostError(
      'SKILL_REMOVED',
      `Skill ${quote(name.slice(0, MAX_SKILL_NAME))} (sha256 ${hash.slice(0, 12)}…) was activated earlier in this conversation but is no longer offered: it was removed, renamed or disabled. Do not rely on what you remember of its instructions; skillhost_search lists the skills there are.`,
      { details: { skill: name.slice(0, MAX_SKILL_NAME), contentHash: hash } },
    );
  }
  const activation = await host.requestActivation(name, { triggeredBy: 'model', resend: true });
  const changed = activation.contentHash !== hash;
  const notice = changed
    ? `Notice: skill ${activation.name} changed since it was activated in this conversation: its SKILL.md had sha256 ${hash} and now has ${activation.contentHash ?? 'no readable hash'}. These are its current instructions; what you were told of it before no longer holds.\n\n`
    : '';
  return {
    isError: false,
    text: `${notice}${activation.text}`,
    data: {
      ...activationData(activation, host.resolve(activation.address)),
      reactivated: true,
      changed,
      previousHash: hash,
    },
  };
}
