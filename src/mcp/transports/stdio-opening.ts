import { PassThrough, type Readable, type Writable } from 'node:stream';

/** The `_meta` key a 2026-07-28 request names its protocol revision with. */
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
/** JSON-RPC error code of an unsupported protocol revision (2026-07-28). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const NEWLINE = 0x0a;

/** The era a stdio connection opened with: 2025-11-25 (`initialize`, or a message claiming no later revision) or 2026-07-28. */
export type StdioEra = 'legacy' | 'modern';

/** @internal How the opening of a stdio connection is read. */
export interface StdioOpeningOptions {
  /** True when 2026-07-28 is served (SDK v2 is installed); otherwise a 2026-07-28 opening is refused, naming 2025-11-25. */
  readonly modern: boolean;
  /** The longest line read before the era is decided, in bytes (longer: a parse error, and the line is skipped). */
  readonly maxLineBytes: number;
  /**
   * Answers a `server/discover` read before the era is decided (given when 2026-07-28 is served):
   * a probe does not decide, so a client may still fall back to `initialize` on the same connection.
   */
  readonly onDiscover?: ((line: Buffer) => void) | undefined;
}

/** @internal The decided opening: its era, and the connection's input from the deciding message on. */
export interface StdioOpened {
  readonly era: StdioEra;
  readonly input: Readable;
}

/** The era a parsed opening message asks for, a version probe, or why it is not a message. */
function classify(message: unknown): StdioEra | 'discover' | 'invalid' {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return 'invalid';
  const { method, params } = message as { method?: unknown; params?: { _meta?: unknown } };
  if (typeof method !== 'string') return 'invalid';
  if (method === 'server/discover') return 'discover';
  const meta = typeof params === 'object' && params !== null ? params._meta : undefined;
  const claim = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[PROTOCOL_VERSION_KEY] : undefined;
  if (typeof claim !== 'string') return 'legacy';
  return method === 'initialize' && claim.startsWith('2025-') ? 'legacy' : 'modern';
}

/** The id of a JSON-RPC request, `null` when it has none (a notification, or not a request). */
function idOf(message: unknown): string | number | null {
  const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The revision a message claims, for the error naming it (bounded). */
function claimOf(message: unknown): string {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  const claim = typeof meta === 'object' && meta !== null ? meta[PROTOCOL_VERSION_KEY] : undefined;
  return typeof claim === 'string' ? claim.slice(0, 40) : 'unknown';
}

/**
 * @internal Reads a stdio connection's first messages, line by line, until one decides its era: an
 * `initialize` or a message claiming no later revision opens a 2025-11-25 connection, a request
 * whose `_meta` claims a later revision a 2026-07-28 one. A `server/discover` probe is handed to
 * `onDiscover` and decides nothing (the client may fall back to `initialize`); without
 * `onDiscover` it opens a 2026-07-28 connection. Before
 * that, a line that is not JSON, or not a JSON-RPC message, is answered with the JSON-RPC error
 * (id `null`) and skipped; a line longer than `maxLineBytes` is answered likewise and skipped up
 * to its newline, its bytes dropped as they arrive (memory stays bounded); without SDK v2, a
 * 2026-07-28 request is answered with the unsupported-version error naming 2025-11-25 (the client
 * may then fall back to `initialize` on the same connection). The deciding message and everything
 * after it reach the era's transport unchanged through the returned input.
 */
export function readStdioOpening(source: Readable, output: Writable, options: StdioOpeningOptions): { opened: Promise<StdioOpened | undefined>; stop(): void } {
  /** The start of the line being read (chunks without a newline yet), and its length. */
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  let settle!: (opened: StdioOpened | undefined) => void;
  const opened = new Promise<StdioOpened | undefined>((resolve) => (settle = resolve));
  const answer = (id: string | number | null, code: number, message: string, data?: unknown): void => {
    output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } })}\n`);
  };
  const detach = (): void => {
    source.off('data', onData);
    source.off('end', onEnd);
    source.off('error', onEnd);
  };
  const decide = (era: StdioEra, rest: Buffer): void => {
    detach();
    const input = new PassThrough();
    input.write(rest);
    if (source.readableEnded) input.end();
    else source.pipe(input);
    settle({ era, input });
  };
  /** Handles one complete line; true when it decided the era (then `rest`, from this line on, goes to the era). */
  const onLine = (line: Buffer, rest: () => Buffer): boolean => {
    const text = line.toString('utf8').trim();
    if (text === '') return false;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      answer(null, PARSE_ERROR, 'Parse error: the line is not JSON (one JSON-RPC message per line).');
      return false;
    }
    const era = classify(message);
    if (era === 'invalid') {
      answer(idOf(message), INVALID_REQUEST, 'Invalid Request: expected a JSON-RPC request or notification (an object with a string "method").');
      return false;
    }
    if (era === 'discover' && options.onDiscover !== undefined) {
      options.onDiscover(line);
      return false;
    }
    if ((era === 'modern' || era === 'discover') && !options.modern) {
      const requested = claimOf(message);
      const id = idOf(message);
      if (id !== null) answer(id, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${requested}`, { supported: ['2025-11-25'], requested });
      return false;
    }
    decide(era === 'discover' ? 'modern' : era, rest());
    return true;
  };
  const onData = (chunk: Buffer): void => {
    let from = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, from)) {
      const before = pending;
      const start = from;
      pending = [];
      pendingBytes = 0;
      from = end + 1;
      if (skipping) {
        skipping = false;
        continue;
      }
      const piece = chunk.subarray(start, end);
      const line = before.length === 0 ? piece : Buffer.concat([...before, piece]);
      if (onLine(line, () => Buffer.concat([...before, chunk.subarray(start)]))) return;
    }
    if (skipping) return; // the oversized line goes on: dropped as it arrives
    const tail = chunk.subarray(from);
    pending.push(tail);
    pendingBytes += tail.length;
    if (pendingBytes > options.maxLineBytes) {
      answer(null, PARSE_ERROR, `Parse error: a message is longer than ${options.maxLineBytes} bytes; it is skipped up to its newline.`);
      skipping = true;
      pending = [];
      pendingBytes = 0;
    }
  };
  const onEnd = (): void => {
    detach();
    settle(undefined);
  };
  source.on('data', onData);
  source.once('end', onEnd);
  source.once('error', onEnd);
  return {
    opened,
    stop: () => {
      detach();
      source.pause();
      settle(undefined);
    },
  };
}
