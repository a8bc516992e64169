import { createHash, randomUUID } from 'node:crypto';
import type { ContentHasher } from '../deps.js';

/** SHA-256 of the bytes, as lower-case hex. */
export const sha256: ContentHasher = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * A new random identifier (a version 4 UUID): audit session ids, MCP session ids. Loaded with
 * the hash module, which already takes node:crypto.
 */
export function randomId(): string {
  return randomUUID();
}
