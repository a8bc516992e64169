import { createHash } from 'node:crypto';
import type { ContentHasher } from '../deps.js';

/** SHA-256 of the bytes, as lower-case hex. */
export const sha256: ContentHasher = (bytes) => createHash('sha256').update(bytes).digest('hex');
