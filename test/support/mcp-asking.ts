import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type ClientCapabilities,
  type CreateMessageRequest,
  type ElicitRequest,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { Toolkit } from '../../src';
import { createMcpServer, type McpServerHandle, type McpServerOptions } from '../../src/mcp';
import type { Closer } from './mcp';

type Answer<R> = (request: R, extra: { signal: AbortSignal }) => unknown;

/**
 * An official SDK client that declares `capabilities` and answers the server's sampling and
 * elicitation requests with the given functions (their return value goes back as is: a test may
 * answer with anything); it records every log notification and every request it got.
 */
export class AskingClient {
  readonly client: Client;
  readonly logs: LoggingMessageNotification['params'][] = [];
  readonly sampled: CreateMessageRequest['params'][] = [];
  readonly elicited: ElicitRequest['params'][] = [];

  constructor(capabilities: ClientCapabilities, answers: { sample?: Answer<CreateMessageRequest>; elicit?: Answer<ElicitRequest> } = {}) {
    this.client = new Client({ name: 'asking-client', version: '1.0.0' }, { capabilities });
    this.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      this.logs.push(n.params);
    });
    if (capabilities.sampling) {
      this.client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
        this.sampled.push(request.params);
        return (await answers.sample?.(request, extra)) as never;
      });
    }
    if (capabilities.elicitation) {
      this.client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
        this.elicited.push(request.params);
        return (await answers.elicit?.(request, extra)) as never;
      });
    }
  }

  connect(transport: Transport): Promise<void> {
    return this.client.connect(transport);
  }

  close(): Promise<void> {
    return this.client.close();
  }

  async call(name: string, args: Record<string, unknown> = {}, signal?: AbortSignal): Promise<CallToolResult> {
    return (await this.client.callTool({ name, arguments: args }, undefined, signal ? { signal } : {})) as CallToolResult;
  }
}

/** Serves `toolkit` in memory to an {@link AskingClient}. */
export async function connectAsking(
  toolkit: Toolkit,
  closer: Closer,
  client: AskingClient,
  options: Partial<McpServerOptions> = {},
): Promise<{ client: AskingClient; mcp: McpServerHandle }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const mcp = closer.add(createMcpServer(toolkit, { name: 'toolwright-test', version: '0.0.0', ...options }));
  await mcp.connect(serverSide);
  closer.add(client);
  await client.connect(clientSide);
  return { client, mcp };
}


type RawMessage = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { code: number; message: string } };

/**
 * A hostile MCP client without the SDK: it speaks raw JSON-RPC over an in-memory transport,
 * declares what capabilities it likes and answers the server's requests with any JSON `answer`
 * returns (a `result`, an `error`, or nothing at all).
 */
export class HostileClient {
  private nextId = 1;
  private readonly pending = new Map<number | string, (message: RawMessage) => void>();
  /** The server's requests, in order. */
  readonly requests: RawMessage[] = [];

  constructor(
    private readonly transport: InMemoryTransport,
    private readonly answer: (request: RawMessage) => Partial<RawMessage> | undefined,
  ) {
    transport.onmessage = (raw) => {
      const message = raw as RawMessage;
      if (message.method !== undefined && message.id !== undefined) {
        this.requests.push(message);
        const reply = this.answer(message);
        if (reply !== undefined) void this.transport.send({ jsonrpc: '2.0', id: message.id, ...reply } as never);
      } else if (message.id !== undefined) this.pending.get(message.id)?.(message);
    };
  }

  /** Connects to `mcp`, initializes with `capabilities`. */
  static async connect(mcp: McpServerHandle, capabilities: Record<string, unknown>, answer: HostileClient['answer']): Promise<HostileClient> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const client = new HostileClient(clientSide, answer);
    await clientSide.start();
    await client.request('initialize', { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'hostile', version: '6.6.6' } });
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return client;
  }

  /** Sends a request and resolves with the whole response message. */
  request(method: string, params: Record<string, unknown>): Promise<RawMessage> {
    const id = `c${this.nextId++}`;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      void this.transport.send({ jsonrpc: '2.0', id, method, params } as never);
    });
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
