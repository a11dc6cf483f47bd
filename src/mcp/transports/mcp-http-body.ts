import type { IncomingMessage } from 'node:http';

/** @internal A POST body that could not be read: the HTTP status and JSON-RPC error to answer with. */
export interface BodyRefusal {
  readonly status: 400 | 408 | 413;
  readonly code: number;
  readonly message: string;
}

/** @internal What {@link readJsonBody} gives: the parsed body, or why there is none. */
export type BodyOutcome = { readonly body: unknown } | { readonly refusal: BodyRefusal };

/**
 * @internal Reads and parses a request's JSON body, at most `maxBytes` bytes, within `timeoutMs`
 * of being called. A body announced or found larger is refused with 413, one that has not
 * arrived in time with 408, one that does not parse with 400 (-32700); the connection of a
 * refused request is closed after the answer, so nothing more is read from it.
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<BodyOutcome> {
  const refuse = (status: BodyRefusal['status'], code: number, message: string): BodyOutcome => ({ refusal: { status, code, message } });
  const tooLarge = () => refuse(413, -32000, `Payload Too Large: a request body must not exceed ${maxBytes} bytes.`);
  if (Number(req.headers['content-length']) > maxBytes) return Promise.resolve(tooLarge());
  if (req.readableEnded) return Promise.resolve(parse(Buffer.alloc(0)));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (outcome: BodyOutcome): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onFailure);
      if ('refusal' in outcome) req.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > maxBytes) finish(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(parse(Buffer.concat(chunks)));
    const onFailure = (): void => finish(refuse(400, -32000, 'Bad Request: the request body was cut off.'));
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => finish(refuse(408, -32000, `Request Timeout: the request body did not arrive within ${timeoutMs} ms. Send the whole body at once.`)), timeoutMs)
      : undefined;
    req.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onFailure);
  });
}

function parse(bytes: Buffer): BodyOutcome {
  try {
    return { body: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch {
    return { refusal: { status: 400, code: -32700, message: 'Parse error: the request body is not valid JSON.' } };
  }
}

/** The most keys a request's `params._meta` or `params.inputResponses` may have. */
export const MAX_PROTOCOL_KEYS = 256;

/** The number of own enumerable keys of `value` when it is a plain object, counting no further than `limit + 1`. */
function keyCount(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 0;
  let count = 0;
  for (const key in value) {
    if (Object.prototype.hasOwnProperty.call(value, key) && ++count > limit) return Object.keys(value).length;
  }
  return count;
}

/**
 * @internal Why a parsed body must be refused before the SDK validates it: a message whose
 * `params._meta` or `params.inputResponses` has more than {@link MAX_PROTOCOL_KEYS} keys (the
 * SDK's validation takes seconds of the event loop for a few hundred thousand). `undefined` when
 * it passes.
 */
export function protocolKeysRefusal(body: unknown): BodyRefusal | undefined {
  const messages: readonly unknown[] = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    const params = typeof message === 'object' && message !== null ? (message as { params?: unknown }).params : undefined;
    if (typeof params !== 'object' || params === null) continue;
    for (const name of ['_meta', 'inputResponses'] as const) {
      const count = keyCount((params as Record<string, unknown>)[name], MAX_PROTOCOL_KEYS);
      if (count > MAX_PROTOCOL_KEYS) return { status: 400, code: -32602, message: `Invalid params: ${name} has ${count} keys; at most ${MAX_PROTOCOL_KEYS} are accepted.` };
    }
  }
  return undefined;
}

/**
 * @internal The POST body of `req`: `parsed` when the app already parsed it, else read with
 * {@link readJsonBody}; either way refused when {@link protocolKeysRefusal} says so.
 */
export async function requestBody(req: IncomingMessage, parsed: unknown, maxBytes: number, timeoutMs: number): Promise<BodyOutcome> {
  const read = parsed !== undefined ? { body: parsed } : await readJsonBody(req, maxBytes, timeoutMs);
  const refusal = 'body' in read ? protocolKeysRefusal(read.body) : undefined;
  return refusal !== undefined ? { refusal } : read;
}

/**
 * @internal True when `body` is an MCP `initialize` request: one JSON-RPC request (alone, or the
 * only one of a batch) with method `initialize`, an id and params.
 */
export function isInitializeRequest(body: unknown): boolean {
  const message = Array.isArray(body) && body.length === 1 ? (body[0] as unknown) : body;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const { jsonrpc, method, id, params } = message as Record<string, unknown>;
  return jsonrpc === '2.0' && method === 'initialize' && (typeof id === 'string' || typeof id === 'number') && typeof params === 'object' && params !== null;
}
