import { deflateRawSync, gzipSync } from 'node:zlib';

/** One entry of a hand-built archive: any name, any type, any content (hostile ones too). */
export interface RawEntry {
  readonly name: string;
  /** file (default), directory, symlink, hardlink, device (character), fifo. */
  readonly type?: 'file' | 'directory' | 'symlink' | 'hardlink' | 'device' | 'fifo';
  readonly content?: string | Uint8Array;
  readonly linkTarget?: string;
  readonly mode?: number;
  /** For tar: a size to claim in the header instead of the content's. */
  readonly claimedSize?: number;
}

const TAR_TYPES = {
  file: '0',
  hardlink: '1',
  symlink: '2',
  device: '3',
  directory: '5',
  fifo: '6',
};

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function bytesOf(content: string | Uint8Array | undefined): Buffer {
  return content === undefined ? Buffer.alloc(0) : Buffer.from(content);
}

/** A ustar header and data blocks, written by hand so that tests can make any entry at all. */
function tarEntry(entry: RawEntry): Buffer {
  const type = entry.type ?? 'file';
  const data = type === 'file' ? bytesOf(entry.content) : Buffer.alloc(0);
  const header = Buffer.alloc(512);
  const name = Buffer.from(entry.name);
  if (name.length > 100) {
    // Split into prefix (155) and name (100) at a slash, as ustar does.
    const cut = entry.name.lastIndexOf('/', 155);
    header.write(entry.name.slice(cut + 1), 0, 100);
    header.write(entry.name.slice(0, cut), 345, 155);
  } else name.copy(header, 0);
  header.write(octal(entry.mode ?? (type === 'directory' ? 0o755 : 0o644), 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(entry.claimedSize ?? data.length, 12), 124);
  header.write(octal(0, 12), 136);
  header.write('        ', 148);
  header.write(TAR_TYPES[type], 156);
  if (entry.linkTarget !== undefined) header.write(entry.linkTarget, 157, 100);
  header.write('ustar\u000000', 257);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([header, data, padding]);
}

/** A gzip-compressed tar of the entries, in order. */
export function makeTarGz(entries: readonly RawEntry[]): Buffer {
  return gzipSync(Buffer.concat([...entries.map(tarEntry), Buffer.alloc(1024)]));
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const UNIX_TYPES = {
  file: 0o100000,
  directory: 0o040000,
  symlink: 0o120000,
  hardlink: 0o100000,
  device: 0o020000,
  fifo: 0o010000,
};

/** A zip of the entries (deflated), with Unix modes in the external attributes. */
export function makeZip(entries: readonly RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const type = entry.type ?? 'file';
    const raw = type === 'symlink' ? Buffer.from(entry.linkTarget ?? '') : bytesOf(entry.content);
    const compressed = deflateRawSync(raw);
    const name = Buffer.from(
      type === 'directory' && !entry.name.endsWith('/') ? `${entry.name}/` : entry.name,
    );
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((UNIX_TYPES[type] | (entry.mode ?? 0o644)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
