import { describe, expect, it } from 'vitest';
import { formatSize, parseSize } from '../../src/cli/size.js';
import { runCli } from '../helpers/cli.js';

describe('sizes on the command line', () => {
  it('reads bytes and K, M, G in powers of 1024, however written', () => {
    expect(parseSize('1000')).toBe(1000);
    expect(parseSize('512M')).toBe(512 * 1024 ** 2);
    expect(parseSize('512m')).toBe(512 * 1024 ** 2);
    expect(parseSize('512MiB')).toBe(512 * 1024 ** 2);
    expect(parseSize('512 MB')).toBe(512 * 1024 ** 2);
    expect(parseSize('64k')).toBe(64 * 1024);
    expect(parseSize('1.5G')).toBe(1.5 * 1024 ** 3);
    expect(parseSize('2g')).toBe(2 * 1024 ** 3);
    expect(parseSize('100b')).toBe(100);
  });

  it('refuses what is not a size: nothing, zero, negative, other units, too large', () => {
    for (const text of ['', 'lots', '0', '0M', '-1', '1T', '1e9', 'M', '12 34', '2048G'])
      expect({ text, size: parseSize(text) }).toEqual({ text, size: undefined });
  });

  it('writes sizes for people', () => {
    expect(formatSize(512 * 1024 ** 2)).toBe('512 MiB');
    expect(formatSize(1536 * 1024 ** 2)).toBe('1.5 GiB');
    expect(formatSize(4096)).toBe('4 KiB');
    expect(formatSize(300)).toBe('300 bytes');
  });

  it('skillhost run --max-write takes a size, or is a usage error', async () => {
    const bad = await runCli(['run', '--max-write', 'lots', 'x', 'scripts/x.sh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-write needs a size');
  });
});
