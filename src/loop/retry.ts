import type { Code } from '../codes.js';

/** What went wrong with a model request, as far as retrying and falling back are concerned. */
export type FailureKind =
  | 'overloaded'
  | 'server'
  | 'rate-limit'
  | 'not-found'
  | 'refusal'
  | 'bad-request'
  | 'context-overflow'
  | 'auth'
  | 'network'
  | 'aborted'
  | 'other';

export interface ModelFailure {
  readonly kind: FailureKind;
  readonly code: Code;
  readonly message: string;
  readonly status?: number;
  /** What the server asked us to wait before retrying (retry-after, retry-after-ms). */
  readonly retryAfterMs?: number;
}

/** Worth another try of the same model. */
export function isRetryable(failure: ModelFailure): boolean {
  return (
    failure.kind === 'overloaded' ||
    failure.kind === 'server' ||
    failure.kind === 'rate-limit' ||
    failure.kind === 'network'
  );
}

/**
 * Worth the fallback model once retries are spent: overloaded, 5xx, a rate limit, a model the
 * provider does not have, a refusal. Never a bad request (the fallback would get the same request),
 * nor a missing key or a network failure (the same for every model of the provider).
 */
export function warrantsFallback(failure: ModelFailure): boolean {
  return (
    failure.kind === 'overloaded' ||
    failure.kind === 'server' ||
    failure.kind === 'rate-limit' ||
    failure.kind === 'not-found' ||
    failure.kind === 'refusal'
  );
}

type Json = Record<string, unknown>;

function headerOf(headers: unknown, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  for (const [key, value] of Object.entries(headers as Json)) {
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return undefined;
}

/** retry-after-ms, else retry-after in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: unknown, now: number): number | undefined {
  const ms = headerOf(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const after = headerOf(headers, 'retry-after');
  if (after === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(after.trim())) return Math.ceil(Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function errorObject(error: unknown): Json | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const inner = (error as Json).error;
  if (inner !== null && typeof inner === 'object') return inner as Json;
  return error as Json;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** How the providers say a request is longer than the model's context window. */
const TOO_LONG =
  /prompt is too long|context[_ ]length[_ ]exceeded|maximum context length|context window|exceeds? the (?:model's )?(?:context|maximum)|too many (?:input )?tokens|input is too long|request too large/i;

/** Whether a failure is the provider saying the request does not fit the model's context window. */
function isContextOverflow(status: number | undefined, type: string, message: string): boolean {
  if (type === 'context_length_exceeded' || type === 'request_too_large') return true;
  if (status !== undefined && status !== 400 && status !== 413) return false;
  return TOO_LONG.test(message);
}

/**
 * Reads an AI SDK error (an APICallError with its status and headers, or an error object a
 * stream carried: Anthropic's `overloaded_error`, an OpenAI `error` chunk) into a failure.
 */
export function classifyFailure(error: unknown, now: number): ModelFailure {
  const object = (error ?? {}) as Json;
  const name = text(object.name);
  if (
    name === 'AbortError' ||
    (error instanceof Error && /aborted/i.test(error.message) && name.includes('Abort'))
  )
    return { kind: 'aborted', code: 'AGENT_INTERRUPTED', message: 'The request was interrupted' };
  const status = typeof object.statusCode === 'number' ? object.statusCode : undefined;
  let data = object.data as Json | undefined;
  if (data === undefined && typeof object.responseBody === 'string') {
    try {
      data = JSON.parse(object.responseBody) as Json;
    } catch {
      data = undefined;
    }
  }
  const detail = errorObject(data) ?? (status === undefined ? errorObject(error) : undefined) ?? {};
  const type = text(detail.type) || text(detail.code);
  const message =
    text(detail.message) ||
    (error instanceof Error ? error.message : '') ||
    'the model request failed';
  const said = `${status === undefined ? '' : `${status} `}${type === '' ? '' : `${type}: `}${message}`;
  const wait = retryAfterMs(object.responseHeaders, now);
  const base = {
    message: said,
    ...(status === undefined ? {} : { status }),
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
  };
  if (status === 529 || type === 'overloaded_error' || type === 'overloaded')
    return { kind: 'overloaded', code: 'MODEL_OVERLOADED', ...base };
  if (status === 429 || type === 'rate_limit_error' || type === 'rate_limit_exceeded')
    return { kind: 'rate-limit', code: 'MODEL_RATE_LIMITED', ...base };
  if (status === 404 || type === 'not_found_error' || type === 'model_not_found')
    return { kind: 'not-found', code: 'MODEL_NOT_FOUND', ...base };
  if (
    status === 401 ||
    status === 403 ||
    type === 'authentication_error' ||
    type === 'permission_error'
  )
    return { kind: 'auth', code: 'MODEL_AUTH_FAILED', ...base };
  if (status !== undefined && status >= 500)
    return { kind: 'server', code: 'MODEL_REQUEST_FAILED', ...base };
  if (type === 'api_error' || type === 'server_error')
    return { kind: 'server', code: 'MODEL_REQUEST_FAILED', ...base };
  if (isContextOverflow(status, type, message))
    return { kind: 'context-overflow', code: 'MODEL_CONTEXT_TOO_LONG', ...base };
  if (status !== undefined && status >= 400)
    return { kind: 'bad-request', code: 'MODEL_BAD_REQUEST', ...base };
  if (type === 'invalid_request_error')
    return { kind: 'bad-request', code: 'MODEL_BAD_REQUEST', ...base };
  if (status === undefined && object.isRetryable === true)
    return { kind: 'network', code: 'MODEL_REQUEST_FAILED', ...base };
  if (name === 'TypeError' || /fetch failed|ECONNREFUSED|ECONNRESET|socket/i.test(message))
    return { kind: 'network', code: 'MODEL_REQUEST_FAILED', ...base };
  return { kind: 'other', code: 'MODEL_REQUEST_FAILED', ...base };
}

/** How long to wait before retry `attempt` (1-based): what the server asked, else exponential backoff with jitter. */
export function retryDelay(
  failure: ModelFailure,
  attempt: number,
  random: () => number = Math.random,
): number {
  if (failure.retryAfterMs !== undefined) return failure.retryAfterMs;
  const ceiling = Math.min(30_000, 500 * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Waits, unless the signal aborts first (then rejects with an AbortError). */
export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortError(): Error {
  const error = new Error('The run was interrupted');
  error.name = 'AbortError';
  return error;
}
