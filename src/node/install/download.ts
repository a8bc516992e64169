import { createHash } from 'node:crypto';
import { closeSync, constants, openSync, readSync, writeSync } from 'node:fs';
import { SkillhostError } from '../../errors.js';

export interface Downloaded {
  readonly bytes: number;
  /** `sha256:` and the SHA-256 of the bytes, as the lockfile records an archive. */
  readonly digest: string;
}

export interface DownloadOptions {
  /** Most bytes taken (default 100 MiB). */
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
  /** The fetch function (default: the global one). */
  readonly fetch?: typeof fetch;
}

const MAX_BYTES = 100 * 1024 * 1024;

function tooLarge(what: string, max: number): SkillhostError {
  return new SkillhostError('SOURCE_TOO_LARGE', `${what} is larger than ${max} bytes`, {
    details: { source: what },
  });
}

/** Downloads `url` into `file` (created; never overwritten), hashing the bytes as they come. */
export async function downloadFile(
  url: string,
  file: string,
  options: DownloadOptions = {},
): Promise<Downloaded> {
  const max = options.maxBytes ?? MAX_BYTES;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 300_000);
  const fd = openSync(
    file,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, {
        redirect: 'follow',
        signal: controller.signal,
      });
    } catch (error) {
      throw new SkillhostError(
        'SOURCE_FETCH_FAILED',
        `Downloading ${url} failed: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
        { details: { url } },
      );
    }
    if (!response.ok || response.body === null)
      throw new SkillhostError(
        'SOURCE_FETCH_FAILED',
        `Downloading ${url} failed: HTTP ${response.status}`,
        {
          details: { url, status: response.status },
        },
      );
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > max) throw tooLarge(url, max);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      if (bytes > max) throw tooLarge(url, max);
      hash.update(chunk);
      writeSync(fd, chunk);
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
    closeSync(fd);
  }
  return { bytes, digest: `sha256:${hash.digest('hex')}` };
}

/** Copies a local archive into `file`, hashing it: what is extracted is exactly what was hashed. */
export function copyFileHashed(
  from: string,
  file: string,
  options: { readonly maxBytes?: number } = {},
): Downloaded {
  const max = options.maxBytes ?? MAX_BYTES;
  let source: number;
  try {
    source = openSync(from, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new SkillhostError('PATH_NOT_FOUND', `Cannot open ${from}: ${(error as Error).message}`, {
      details: { path: from },
    });
  }
  const target = openSync(
    file,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(1024 * 1024);
  let bytes = 0;
  try {
    for (;;) {
      const read = readSync(source, buffer, 0, buffer.length, null);
      if (read === 0) break;
      bytes += read;
      if (bytes > max) throw tooLarge(from, max);
      hash.update(buffer.subarray(0, read));
      writeSync(target, buffer, 0, read);
    }
  } finally {
    closeSync(source);
    closeSync(target);
  }
  return { bytes, digest: `sha256:${hash.digest('hex')}` };
}
