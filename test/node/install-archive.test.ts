import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractArchive } from '../../src/node/install/archive.js';
import { makeTarGz, makeZip, type RawEntry } from '../helpers/archives.js';
import { tempDir } from '../helpers/temp.js';

const skill = (name = 'demo'): RawEntry[] => [
  { name: `${name}/`, type: 'directory' },
  {
    name: `${name}/SKILL.md`,
    content: `---\nname: ${name}\ndescription: Demo. Use when testing.\n---\nBody\n`,
  },
  { name: `${name}/scripts/run.sh`, content: 'echo hi\n', mode: 0o755 },
];

/** Writes the archive, extracts it into a fresh folder, and returns that folder (or the error). */
async function extract(format: 'tar.gz' | 'zip', entries: readonly RawEntry[], bytes?: Buffer) {
  const root = tempDir('skillhost-archive-');
  const file = join(root, format === 'zip' ? 'a.zip' : 'a.tgz');
  writeFileSync(file, bytes ?? (format === 'zip' ? makeZip(entries) : makeTarGz(entries)));
  const destination = join(root, 'out');
  mkdirSync(destination);
  try {
    const result = await extractArchive(file, format, destination);
    return { destination, result, error: undefined };
  } catch (error) {
    return { destination, result: undefined, error: error as { code?: string; message: string } };
  }
}

describe.each(['tar.gz', 'zip'] as const)('extracting a %s', (format) => {
  it('extracts files, folders, modes and links that stay inside', async () => {
    const { destination, result, error } = await extract(format, [
      ...skill(),
      { name: 'demo/references/a.md', content: 'A\n' },
      { name: 'demo/references/b.md', type: 'symlink', linkTarget: 'a.md' },
    ]);
    expect(error).toBeUndefined();
    expect(result?.entries).toBe(5);
    expect(readFileSync(join(destination, 'demo/SKILL.md'), 'utf8')).toContain('name: demo');
    expect(lstatSync(join(destination, 'demo/scripts/run.sh')).mode & 0o777).toBe(0o755);
    expect(readlinkSync(join(destination, 'demo/references/b.md'))).toBe('a.md');
  });

  const hostile: Array<[string, RawEntry[], string]> = [
    [
      'zip-slip (..)',
      [...skill(), { name: 'demo/../../evil.sh', content: 'x' }],
      'ARCHIVE_PATH_UNSAFE',
    ],
    [
      'an absolute path',
      [...skill(), { name: '/tmp/evil.sh', content: 'x' }],
      'ARCHIVE_PATH_UNSAFE',
    ],
    [
      'a backslash path',
      [...skill(), { name: 'demo\\..\\evil', content: 'x' }],
      'ARCHIVE_PATH_UNSAFE',
    ],
    [
      'a link out (relative)',
      [...skill(), { name: 'demo/out', type: 'symlink', linkTarget: '../../../etc/passwd' }],
      'ARCHIVE_LINK_OUTSIDE',
    ],
    [
      'a link out (absolute)',
      [...skill(), { name: 'demo/out', type: 'symlink', linkTarget: '/etc/passwd' }],
      'ARCHIVE_LINK_OUTSIDE',
    ],
    [
      'a write through a link',
      [
        ...skill(),
        { name: 'demo/dir', type: 'symlink', linkTarget: 'scripts' },
        { name: 'demo/dir/x.sh', content: 'x' },
      ],
      'ARCHIVE_LINK_OUTSIDE',
    ],
    [
      'a link chain that climbs out',
      [
        ...skill(),
        { name: 'demo/a', type: 'symlink', linkTarget: 'scripts' },
        { name: 'demo/b', type: 'symlink', linkTarget: 'a/../../..' },
      ],
      'ARCHIVE_LINK_OUTSIDE',
    ],
    ['a device entry', [...skill(), { name: 'demo/tty', type: 'device' }], 'ARCHIVE_ENTRY_TYPE'],
    ['a FIFO', [...skill(), { name: 'demo/pipe', type: 'fifo' }], 'ARCHIVE_ENTRY_TYPE'],
    [
      'duplicate names',
      [...skill(), { name: 'demo/SKILL.md', content: 'again' }],
      'ARCHIVE_DUPLICATE_ENTRY',
    ],
    [
      'names that differ only in case',
      [...skill(), { name: 'demo/skill.md', content: 'x' }],
      'ARCHIVE_DUPLICATE_ENTRY',
    ],
    [
      'a file that is also a folder',
      [...skill(), { name: 'demo/scripts/run.sh/inner', content: 'x' }],
      'ARCHIVE_DUPLICATE_ENTRY',
    ],
    [
      'a huge entry count',
      [
        ...skill(),
        ...Array.from({ length: 10_001 }, (_, index) => ({
          name: `demo/many/${index}`,
          content: '',
        })),
      ],
      'ARCHIVE_LIMIT',
    ],
    [
      'a compression bomb',
      [...skill(), { name: 'demo/zeros.bin', content: new Uint8Array(20 * 1024 * 1024) }],
      'ARCHIVE_LIMIT',
    ],
  ];
  if (format === 'tar.gz')
    hostile.push([
      'a hard link to a file outside',
      [...skill(), { name: 'demo/h', type: 'hardlink', linkTarget: '/etc/passwd' }],
      'ARCHIVE_LINK_OUTSIDE',
    ]);

  it.each(hostile)('refuses %s and writes nothing', async (_label, entries, code) => {
    const { destination, error } = await extract(format, entries);
    expect(error?.code, error?.message).toBe(code);
    expect(readdirSync(destination)).toEqual([]);
  });

  it('refuses a file that is not such an archive', async () => {
    const { error, destination } = await extract(
      format,
      [],
      Buffer.from('not an archive at all, just text'),
    );
    expect(error?.code).toBe('ARCHIVE_INVALID');
    expect(readdirSync(destination)).toEqual([]);
  });
});

describe('extracting a tar.gz', () => {
  it('refuses a header that claims more bytes than the limit before reading them', async () => {
    const { error } = await extract('tar.gz', [
      ...skill(),
      { name: 'demo/big.bin', content: 'x', claimedSize: 200 * 1024 * 1024 },
    ]);
    expect(error?.code).toBe('ARCHIVE_LIMIT');
  });
});
