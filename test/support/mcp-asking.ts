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

