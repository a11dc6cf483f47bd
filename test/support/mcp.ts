import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Toolkit } from '../../src';
import { createMcpServer, type McpServerHandle, type McpServerOptions } from '../../src/mcp';
import { ROOT } from './child-process';

/** Things to close at the end of a test, most recent first. */
export class Closer {
  private readonly items: (() => Promise<unknown>)[] = [];
  add<T extends { close(): Promise<unknown> }>(item: T): T {
    this.items.push(() => item.close());
    return item;
  }
  async closeAll(): Promise<void> {
    while (this.items.length) await this.items.pop()!().catch(() => undefined);
  }
}

/** A client that counts `notifications/tools/list_changed` and can wait for the next one. */
export class TestClient {
  readonly client = new Client({ name: 'toolwright-test-client', version: '0.0.0' });
  listChanged = 0;
  private waiters: (() => void)[] = [];

  constructor() {
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.listChanged++;
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w();
      return Promise.resolve();
    });
  }

  /** Resolves on the next list_changed notification. */
  nextListChanged(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  connect(transport: Transport): Promise<void> {
    return this.client.connect(transport);
  }

  close(): Promise<void> {
    return this.client.close();
  }

  async toolNames(): Promise<string[]> {
    return (await this.client.listTools()).tools.map((t) => t.name);
  }

  async call(name: string, args: Record<string, unknown> = {}, onprogress?: (p: Progress) => void, signal?: AbortSignal): Promise<CallToolResult> {
    const options = { ...(onprogress ? { onprogress } : {}), ...(signal ? { signal } : {}) };
    return (await this.client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
  }
}

/** The text of the first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}

/** Serves `toolkit` in memory and connects a test client to it. */
export async function connectInMemory(
  toolkit: Toolkit,
  closer: Closer,
  options: Partial<McpServerOptions> = {},
): Promise<{ client: TestClient; mcp: McpServerHandle }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const mcp = closer.add(createMcpServer(toolkit, { name: 'toolwright-test', version: '0.0.0', ...options }));
  await mcp.connect(serverSide);
  const client = closer.add(new TestClient());
  await client.connect(clientSide);
  return { client, mcp };
}

/**
 * Starts `node args…` from the repository root as a real child process and connects a test client
 * to it over stdio (the official StdioClientTransport); `stderr()` is what the child wrote there so far.
 */
export async function connectStdio(closer: Closer, args: readonly string[], env?: Record<string, string>): Promise<{ client: TestClient; stderr(): string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...args], cwd: ROOT, stderr: 'pipe', ...(env ? { env } : {}) });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = closer.add(new TestClient());
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** Polls `check` on the event loop until it holds (no fixed sleeps), failing after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
