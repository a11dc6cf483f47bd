import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Writes one server-sent-events reply; `closed` once the client went away. */
export class SseWriter {
  constructor(private readonly res: ServerResponse) {}

  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /** One event (`event:` line when named), its data as JSON (or as given when a string). */
  send(data: unknown, event?: string): void {
    if (this.closed) return;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    this.res.write(`${event !== undefined ? `event: ${event}\n` : ''}data: ${text}\n\n`);
  }

  /** Sends `data.type` as the event name too (Responses and Anthropic streams name their events). */
  typed(data: { type: string } & Record<string, unknown>): void {
    this.send(data, data.type);
  }

  /** Waits for the socket to drain (for large replies) or the client to leave. */
  async drain(): Promise<void> {
    if (this.closed || !this.res.writableNeedDrain) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }

  /** Ends the reply normally. */
  end(): void {
    if (!this.closed) this.res.end();
  }

  /** Drops the connection mid-reply (no terminating chunk): a stream cut by the network. */
  cut(): void {
    this.res.socket?.destroy();
  }
}

/** One scripted streamed reply. */
export type SseScript = (writer: SseWriter, body: Record<string, unknown>) => Promise<void> | void;

/**
 * A real HTTP server on 127.0.0.1 (port 0) answering each request with the next scripted
 * server-sent-events reply, for the official SDK clients' streaming paths.
 */
export class SseServer {
  readonly bodies: Record<string, unknown>[] = [];
  /** The path (with query) of each request. */
  readonly paths: string[] = [];
  private readonly scripts: SseScript[] = [];
  /** Resolves when the client of the current reply went away. */
  clientGone: Promise<void> = Promise.resolve();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<SseServer> {
    let instance: SseServer | undefined;
    const server = createServer((req, res) => void instance?.handle(req, res));
    instance = new SseServer(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return instance;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reply(...scripts: SseScript[]): this {
    this.scripts.push(...scripts);
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((e) => (e ? reject(e) : resolve())));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    this.bodies.push(body);
    this.paths.push(req.url ?? '');
    this.clientGone = new Promise((resolve) => res.once('close', () => resolve()));
    const script = this.scripts.shift();
    if (script === undefined) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'no scripted reply left' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    await script(new SseWriter(res), body);
  }
}

/** Chat Completions chunk with one choice delta. */
export function chatChunk(delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'gpt-test', choices: [{ index: 0, delta, finish_reason: finish }] };
}

/** A Chat Completions tool-call delta piece. */
export function chatToolDelta(index: number, piece: { id?: string; name?: string; arguments?: string }): Record<string, unknown> {
  const fn: Record<string, unknown> = {};
  if (piece.name !== undefined) fn.name = piece.name;
  if (piece.arguments !== undefined) fn.arguments = piece.arguments;
  return chatChunk({ tool_calls: [{ index, ...(piece.id !== undefined ? { id: piece.id, type: 'function' } : {}), function: fn }] });
}

/** Waits up to `ms` for `promise`; resolves `false` when it did not settle in time. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Iterates `events` to the end; what came before a failure, and the failure. */
export async function collect<T>(events: AsyncIterable<T>): Promise<{ events: T[]; error?: unknown }> {
  const seen: T[] = [];
  try {
    for await (const event of events) seen.push(event);
    return { events: seen };
  } catch (error) {
    return { events: seen, error };
  }
}
