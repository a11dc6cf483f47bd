import { randomUUID } from 'node:crypto';
import { boundInput } from '../../utils/quote-input';
import type { McpImportSdk2Client } from './sdk2-client';

/** The `_meta` keys of a 2026-07-28 request's envelope. */
const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
/** The longest error message of a server relayed in an error, in characters. */
const MAX_ERROR_CHARS = 300;
/** How long a late answer to a request given up on is still taken (not handed to the SDK as an unknown id). */
const LATE_ANSWER_MS = 5 * 60_000;

type Message = { readonly id?: unknown; readonly result?: unknown; readonly error?: { readonly code?: unknown; readonly message?: unknown; readonly data?: unknown } };
type OnMessage = (message: unknown, extra?: unknown) => void;

/** The part of an SDK 2 transport a raw request uses: its public `send` and `onmessage` callback. */
interface RawTransport {
  send(message: unknown): Promise<void>;
  onmessage?: OnMessage | undefined;
}

/** @internal A JSON-RPC error a server answered a raw request with. */
export class RawRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
    this.name = 'RawRequestError';
  }
}

/** Options of {@link sendRawRequest}. */
export interface RawRequestOptions {
  /** The client capabilities the request declares in its `_meta` envelope. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Gives up waiting after this many ms. */
  readonly timeout: number;
  /** Gives up waiting when it fires (with its reason). */
  readonly signal?: AbortSignal | undefined;
}

/** The answers awaited on each transport, by request id. */
const waiting = new WeakMap<object, Map<string, (message: Message) => void>>();

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The raw requests awaited on `transport`. The transport's `onmessage` callback is chained once:
 * a response to one of these requests (ids of toolwright's own, never the SDK's numbers) is taken
 * here, every other message goes on to the SDK's client as before.
 */
function answersOf(transport: RawTransport): Map<string, (message: Message) => void> {
  const known = waiting.get(transport);
  if (known !== undefined) return known;
  const own = new Map<string, (message: Message) => void>();
  waiting.set(transport, own);
  const previous = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = isObject(message) ? message.id : undefined;
    const take = typeof id === 'string' && !('method' in (message as object)) ? own.get(id) : undefined;
    if (take === undefined) return previous?.(message, extra);
    own.delete(id as string);
    take(message as Message);
  };
  return own;
}

/** The connected transport of `client`, or why a raw request cannot be sent. */
function transportOf(client: McpImportSdk2Client): RawTransport {
  const transport = (client as unknown as { transport?: unknown }).transport;
  if (!isObject(transport) || typeof transport.send !== 'function' || typeof transport.onmessage !== 'function') {
    throw new Error('the SDK 2 client has no connected transport to send a tasks-extension request on');
  }
  return transport as unknown as RawTransport;
}

/**
 * @internal Sends one 2026-07-28 request through the connected transport of an SDK 2 client and
 * resolves with its raw result, whatever its `resultType`: the client's own request path refuses a
 * result type it does not know (`task`) and gates the methods it does not know (`tasks/get`).
 * The request carries the revision's `_meta` envelope (the negotiated version and `capabilities`);
 * the transport adds the `Mcp-Method` / `Mcp-Name` headers from it.
 *
 * @throws RawRequestError for a JSON-RPC error answer (its message bounded); Error on timeout, a
 *   result that is not an object, or the signal (its reason).
 */
export function sendRawRequest(client: McpImportSdk2Client, method: string, params: Readonly<Record<string, unknown>>, options: RawRequestOptions): Promise<Record<string, unknown>> {
  const transport = transportOf(client);
  const answers = answersOf(transport);
  const id = `toolwright-${randomUUID()}`;
  const version = client.getNegotiatedProtocolVersion();
  const message = { jsonrpc: '2.0', id, method, params: { ...params, _meta: { [PROTOCOL_VERSION]: version, [CLIENT_CAPABILITIES]: options.capabilities } } };
  return new Promise((resolve, reject) => {
    const done = (): void => {
      answers.delete(id);
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    /** Gives up: a late answer is still taken here (for a while), so the SDK never sees an id it does not know. */
    const giveUp = (reason: unknown): void => {
      done();
      answers.set(id, () => undefined);
      setTimeout(() => answers.delete(id), LATE_ANSWER_MS).unref();
      reject(reason);
    };
    const onAbort = (): void => giveUp(options.signal?.reason);
    const timer = setTimeout(() => giveUp(new Error(`the server did not answer ${method} within ${options.timeout} ms`)), options.timeout);
    if (options.signal?.aborted) {
      done();
      return reject(options.signal.reason);
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    answers.set(id, (answer) => {
      done();
      if (isObject(answer.error)) {
        const code = typeof answer.error.code === 'number' ? answer.error.code : 0;
        reject(new RawRequestError(code, `${method} failed: ${boundInput(String(answer.error.message), MAX_ERROR_CHARS)} (code ${code})`, answer.error.data));
      } else if (isObject(answer.result)) resolve(answer.result);
      else reject(new Error(`the server answered ${method} without a result object`));
    });
    transport.send(message).catch((error: unknown) => {
      done();
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}
