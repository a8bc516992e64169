import type { Code } from './codes.js';
import type { Diagnostic } from './diagnostics.js';

const marker = Symbol.for('skillhost.error');

export interface SkillhostErrorOptions {
  readonly details?: Readonly<Record<string, unknown>>;
  readonly diagnostics?: readonly Diagnostic[];
  readonly retryable?: boolean;
  readonly cause?: unknown;
}

/**
 * The one error class skillhost throws. `code` comes from the catalogue in codes.ts;
 * `diagnostics` carries the findings when the error sums up a failed validation.
 */
export class SkillhostError extends Error {
  readonly code: Code;
  readonly details: Readonly<Record<string, unknown>>;
  readonly diagnostics: readonly Diagnostic[];
  readonly retryable: boolean;

  constructor(code: Code, message: string, options: SkillhostErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SkillhostError';
    this.code = code;
    this.details = options.details ?? {};
    this.diagnostics = options.diagnostics ?? [];
    this.retryable = options.retryable ?? false;
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for any SkillhostError, even one created by another copy of the package. */
  static isInstance(value: unknown): value is SkillhostError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
