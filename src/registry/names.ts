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
