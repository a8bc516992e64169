import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import { SkillhostError } from '../../node/index.js';

/** Codes that mean "nothing is served there": clients recognise the SDK's not-found error. */
const NOT_FOUND = new Set(['RESOURCE_NOT_FOUND', 'SKILL_NOT_FOUND', 'SCRIPT_NOT_FOUND']);

/** Codes that are the server's fault or its environment's, not the request's. */
const INTERNAL = new Set(['AUDIT_UNAVAILABLE', 'INTERNAL_ERROR', 'SANDBOX_UNAVAILABLE']);

/**
 * A JSON-RPC error for a failed resource read or prompt: the skillhost code leads the message
 * and rides in `data.code`, so a client can act on it; a not-found keeps the SDK's own shape.
 */
export function protocolErrorOf(error: unknown, uri?: string): ProtocolError {
  if (ProtocolError.isInstance(error)) return error;
  if (!SkillhostError.isInstance(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return new ProtocolError(ProtocolErrorCode.InternalError, `INTERNAL_ERROR: ${message}`, {
      code: 'INTERNAL_ERROR',
    });
  }
  const message = `${error.code}: ${error.message}`;
  if (uri !== undefined && NOT_FOUND.has(error.code))
    return new ResourceNotFoundError(uri, message);
  const wire = INTERNAL.has(error.code)
    ? ProtocolErrorCode.InternalError
    : ProtocolErrorCode.InvalidParams;
  return new ProtocolError(wire, message, {
    code: error.code,
    ...(uri === undefined ? {} : { uri }),
  });
}
