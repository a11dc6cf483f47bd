import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { injectable } from 'inversify';
import { Principal, Tool, ToolExecutionContext, ToolParam, type Authorize } from '../../src';
import { createMcpServer, McpPrincipal } from '../../src/mcp';
import { Closer } from '../support/mcp';
import { freshToolkit } from '../support/toolkit';

/** MCP: tools/list hides what the connection's principal may not use, and tools/call refuses it without running it. */
@injectable()
class Reports {
  written: string[] = [];

  @Tool({ description: 'Write a report', scopes: ['reports:write'] })
  writeReport(@ToolParam({ name: 'title' }) title: string): string {
    this.written.push(title);
    return `wrote ${title}`;
  }

  @Tool({ description: 'Delete reports' })
  deleteReports(): string {
    this.written.length = 0;
    return 'deleted';
  }
}

const closer = new Closer();
afterEach(() => closer.closeAll());

async function connect(principal: Principal, authorize?: Authorize) {
  const toolkit = freshToolkit(authorize ? { authorize } : {});
  const reports = new Reports();
  toolkit.registerTool(reports);
  const server = closer.add(createMcpServer(toolkit, { name: 't', version: '1.0.0', context: ToolExecutionContext.of(principal) }));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = closer.add(new Client({ name: 'caller', version: '1.0.0' }));
  await client.connect(clientTransport);
  return { client, reports };
}

describe('MCP authorization', () => {
  it('a principal without the scope: not in tools/list, and tools/call answers FORBIDDEN without running the tool', async () => {
    const { client, reports } = await connect(new McpPrincipal('guest'));
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('write_report');
    const result = (await client.callTool({ name: 'write_report', arguments: { title: 'x' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("requires scope 'reports:write'");
    expect(reports.written).toEqual([]);
  });

  it('a principal with the scope sees and runs it', async () => {
    const { client, reports } = await connect(new Principal('ann', { scopes: ['reports:write'] }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('write_report');
    await client.callTool({ name: 'write_report', arguments: { title: 'y' } });
    expect(reports.written).toEqual(['y']);
  });

  it('an async authorize rule is awaited by tools/list and applied by tools/call', async () => {
    const authorize: Authorize = async ({ tool, principal }) => tool.name !== 'delete_reports' || principal?.claims.role === 'admin';
    const { client, reports } = await connect(new Principal('ann', { scopes: ['reports:write'], claims: { role: 'user' } }), authorize);
    await client.callTool({ name: 'write_report', arguments: { title: 'keep' } });
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('delete_reports');
    const result = (await client.callTool({ name: 'delete_reports', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(reports.written).toEqual(['keep']);
  });
});
