import { GoogleGenAI } from '@google/genai';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolSchema } from '../../src';
import { deepFreeze } from '../support/schemas';

/** One request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
}

/** What the server answers to the next request. */
export interface ScriptedReply {
  /** HTTP status (default 200). */
  status?: number;
  /** The JSON body. */
  json: unknown;
  /** Wait this long before answering (the wait ends early when the client goes away). */
  delayMs?: number;
}

/**
 * A real HTTP server on 127.0.0.1 (port 0) that records every request and answers with
 * scripted JSON replies in order, so the official SDK clients can be pointed at it.
 */
export class WireServer {
  readonly requests: RecordedRequest[] = [];
  private readonly replies: ScriptedReply[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters: Array<() => void> = [];

  private constructor(private readonly server: Server) {}

  /** Starts a server on an ephemeral port. */
  static async start(): Promise<WireServer> {
    let instance: WireServer | undefined;
    const server = createServer((req, res) => {
      void instance?.handle(req, res);
    });
    instance = new WireServer(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return instance;
  }

  /** `http://127.0.0.1:PORT` */
  get origin(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Queues replies for the next requests. */
  reply(...replies: ScriptedReply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** The body of the `index`-th request. */
  body(index: number): Record<string, unknown> {
    const request = this.requests[index];
    if (!request) throw new Error(`no request #${index} (got ${this.requests.length})`);
    return request.body;
  }

  /** Resolves once `count` requests have arrived. */
  async received(count: number): Promise<void> {
    while (this.requests.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Forgets recorded requests and pending replies. */
  reset(): void {
    this.requests.length = 0;
    this.replies.length = 0;
  }

  /** Stops the server, dropping open connections and pending timers. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((e) => (e ? reject(e) : resolve())));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    this.requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    });
    for (const wake of this.waiters.splice(0)) wake();
    const reply = this.replies.shift() ?? { status: 500, json: { error: { message: 'no scripted reply left' } } };
    if (reply.delayMs !== undefined) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          resolve();
        }, reply.delayMs);
        this.timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          this.timers.delete(timer);
          resolve();
        });
      });
      if (res.destroyed) return;
    }
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply.json));
  }
}

/** Canonical tool schemas used by the adapter tests (deep-frozen, as the toolkit hands them out). */
export const WEATHER_TOOLS: readonly ToolSchema[] = deepFreeze<ToolSchema[]>([
  {
    name: 'get_weather',
    description: 'Get the weather forecast',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        days: { type: 'integer', description: 'Forecast days', minimum: 1, maximum: 14, default: 1 },
        unit: { type: 'string', enum: ['C', 'F'] },
      },
      required: ['city'],
    },
  },
  {
    name: 'get_time',
    description: 'Get the local time',
    parameters: {
      type: 'object',
      properties: { tz: { type: 'string', description: 'IANA time zone' } },
      required: ['tz'],
    },
  },
]);

/** A Messages API reply holding one text block (`end_turn`), for a scripted {@link WireServer}. */
export function anthropicTextReply(text: string): ScriptedReply {
  return {
    json: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  };
}

/**
 * A real `@google/genai` client speaking to `server`. Jest runs tests in a separate realm where
 * Node's fetch dispatcher symbol the SDK looks up is missing, so it gets Node's own `fetch`.
 */
export function geminiClient(server: { readonly origin: string }): GoogleGenAI {
  return new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.origin, fetch: (input, init) => fetch(input, init) } });
}
