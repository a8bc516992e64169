import type * as Crypto from 'node:crypto';
import type { ContentHasher } from '../deps.js';

let loaded: typeof Crypto | undefined;

/**
 * node:crypto, loaded on first use: most of Node's crypto (web crypto included) is compiled when
 * it loads, which a command that never hashes (validate, --help) does not pay for.
 */
export function nodeCrypto(): typeof Crypto {
  loaded ??= process.getBuiltinModule('node:crypto');
  return loaded;
}

/** SHA-256 of the bytes, as lower-case hex. */
export const sha256: ContentHasher = (bytes) =>
  nodeCrypto().createHash('sha256').update(bytes).digest('hex');

/** A new random identifier (a version 4 UUID): audit session ids, MCP session ids. */
export function randomId(): string {
  return nodeCrypto().randomUUID();
}
