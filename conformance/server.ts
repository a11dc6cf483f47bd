/**
 * The server `npm run conformance` tests: the sample services plus the conformance services
 * (`conformance/services/`), over Streamable HTTP on 127.0.0.1, as `serveMcpHttp` serves them.
 *
 * Run alone to point the suite (or an inspector) at it by hand:
 *   node -r ./scripts/swc-register.js conformance/server.ts [port]
 */
import { serveMcpHttp, type McpHttpServer } from '../src/mcp';
import type { Toolkit } from '../src';
import { createSampleToolkit } from '../examples/demo/create-toolkit';
import { CONFORMANCE_HOOKS, CONFORMANCE_SERVICES, listChangeTriggers } from './services';

/** The sample toolkit with every conformance service registered and its group on. */
export function createConformanceToolkit(): Toolkit {
  const toolkit = createSampleToolkit();
  toolkit.createToolGroup('conformance', 'Tools, resources and prompts the MCP conformance suite calls', true);
  for (const service of CONFORMANCE_SERVICES) toolkit.registerTool(service);
  for (const hook of CONFORMANCE_HOOKS) toolkit.use(hook);
  for (const trigger of listChangeTriggers(toolkit)) toolkit.registerTool(trigger);
  return toolkit;
}

/** Serves {@link createConformanceToolkit} on `127.0.0.1:port` (0: any free port), with resumable streams (`server-sse-polling`). */
export function startConformanceServer(port = 0): Promise<McpHttpServer> {
  return serveMcpHttp(createConformanceToolkit(), { name: 'toolwright-conformance', version: '0.1.0', port, resumability: { retryIntervalMs: 500 } });
}

if (require.main === module) {
  startConformanceServer(Number(process.argv[2] ?? 0)).then(
    (server) => {
      process.stderr.write(`toolwright conformance server on ${server.url.href}\n`);
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (error: unknown) => {
      process.stderr.write(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
