import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../src/mcp';
import { Closer } from '../support/mcp';
import { CALLER_CONTEXT, createCatalogToolkit, describeCatalogConformance } from './catalog-conformance';

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('createMcpServer: resources, prompts and completion over the in-memory transport (the toolkit\'s own view)', () => {
  describeCatalogConformance(async () => {
    const toolkit = createCatalogToolkit();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const mcp = closer.add(createMcpServer(toolkit, { name: 'library', version: '1.0.0', context: CALLER_CONTEXT }));
    await mcp.connect(serverSide);
    const client = closer.add(new Client({ name: 'reader', version: '1.0.0' }));
    await client.connect(clientSide);
    return { client, view: mcp.view, toolkit };
  });
});

describe('createMcpServer with sessions: resources, prompts and completion through a toolkit session', () => {
  describeCatalogConformance(async () => {
    const toolkit = createCatalogToolkit();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const mcp = closer.add(createMcpServer(toolkit, { name: 'library', version: '1.0.0', sessions: true, sessionId: 'reader-1', context: () => CALLER_CONTEXT }));
    await mcp.connect(serverSide);
    const client = closer.add(new Client({ name: 'reader', version: '1.0.0' }));
    await client.connect(clientSide);
    return { client, view: mcp.view, toolkit };
  });
});
