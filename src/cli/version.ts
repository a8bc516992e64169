/** The package version; a test checks that it equals package.json's. */
export const VERSION = '0.1.0';
