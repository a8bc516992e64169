import { constants } from 'node:fs';

/**
 * How a file of a skill is opened for reading, wherever it is read: a link at the last step of
 * the path is refused (`ELOOP`) rather than followed, and a FIFO never blocks the open. What
 * was opened is then checked with `fstat` by the reader.
 */
export const READ_OPEN_FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
