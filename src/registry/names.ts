import { createDiagnostic } from '../diagnostics.js';
import { isAsciiName } from '../format/unicode.js';
import { quote } from '../quote.js';
import type { RegistryEntry } from './entries.js';

/**
 * Look-alike names: a skill called `рdf` (Cyrillic р) next to `pdf` is a spoof. The skeleton maps
 * common Cyrillic and Greek letters that look Latin onto the Latin letter, after NFKC.
 */
const lookAlikes: Readonly<Record<string, string>> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  ɡ: 'g',
  ɑ: 'a',
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  '‐': '-',
  '‑': '-',
  '‒': '-',
  '–': '-',
  '—': '-',
  '−': '-',
};

/** The look-alike skeleton of a name: equal skeletons mean the names can be confused. */
export function nameSkeleton(name: string): string {
  let skeleton = '';
  for (const character of name.normalize('NFKC').toLowerCase())
    skeleton += lookAlikes[character] ?? character;
  return skeleton;
}

/**
 * Adds a warning to active skills whose names look like another active skill's name, in the
 * entry list and both maps. Look-alikes need a non-ASCII letter: only those names are reduced to
 * a skeleton and compared with every active name.
 */
export function flagConfusable(
  active: Map<string, RegistryEntry>,
  entries: RegistryEntry[],
  byAddress: Map<string, RegistryEntry>,
): void {
  const foreign = [...active.values()].filter((entry) => !isAsciiName(entry.name));
  if (foreign.length === 0) return;
  const bySkeleton = new Map<string, RegistryEntry[]>();
  const add = (skeleton: string, entry: RegistryEntry) => {
    const group = bySkeleton.get(skeleton);
    if (group === undefined) bySkeleton.set(skeleton, [entry]);
    else if (!group.includes(entry)) group.push(entry);
  };
  for (const entry of foreign) add(nameSkeleton(entry.name), entry);
  for (const entry of active.values()) {
    const plain = entry.name.toLowerCase();
    if (bySkeleton.has(plain)) add(plain, entry);
  }
  for (const group of bySkeleton.values()) {
    if (group.length < 2) continue;
    for (const entry of group) {
      // A plain ASCII name among foreign look-alikes is the original: only the others are flagged.
      if (
        isAsciiName(entry.name) &&
        group.every((other) => other === entry || !isAsciiName(other.name))
      )
        continue;
      const others = group.filter((other) => other !== entry).map((other) => other.address);
      const updated: RegistryEntry = {
        ...entry,
        diagnostics: [
          ...entry.diagnostics,
          createDiagnostic(
            'NAME_CONFUSABLE',
            'warning',
            `Name ${quote(entry.name)} looks like ${others.join(', ')}`,
            entry.skillFile,
          ),
        ],
      };
      entries[entries.indexOf(entry)] = updated;
      byAddress.set(entry.address, updated);
      active.set(entry.name, updated);
    }
  }
}
