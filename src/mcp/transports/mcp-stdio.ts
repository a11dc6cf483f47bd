import { PassThrough } from 'node:stream';
import type { Readable, Writable } from 'node:stream';
import { checkedLogger, writeLog } from '../../model/logger';
import type { Toolkit } from '../../toolkit/toolkit';
import { stderrLogger } from '../shared/stderr-logger';
import { createMcpServer, type McpServerHandle, type McpServerOptions } from '../server/mcp-server';
import { resolveStateSecret } from '../server/modern/state-secret';
import { loadServerSdk } from './mcp-http-modern';
import { serveModernStdio } from './mcp-stdio-modern';
import { readStdioOpening } from './stdio-opening';

type StdioModule = typeof import('@modelcontextprotocol/sdk/server/stdio.js');

/** The longest line read before a connection's era is decided: SDK v2's `STDIO_DEFAULT_MAX_BUFFER_SIZE` (10 MB). */
const MAX_OPENING_LINE_BYTES = 10 * 1024 * 1024;
const NEWLINE = Buffer.from('\n');

/**
 * Options of {@link serveMcpStdio}.
 *
 * @example
 * serveMcpStdio(toolkit, { name: 'app', version: '1.0.0' });
 */
export interface McpStdioOptions extends McpServerOptions {
  /** Where requests come from (default `process.stdin`). */
  stdin?: Readable | undefined;
  /** Where responses go (default `process.stdout`: nothing else may write to it). */
  stdout?: Writable | undefined;
  /**
   * The key that signs state a 2026-07-28 client carries between requests (`requestState` of Multi
   * Round-Trip Requests, task entries), at least 32 bytes. Default: the environment variable
   * `TOOLWRIGHT_MCP_STATE_SECRET`, else a random key per process.
   *
   * @throws ToolkitError `INVALID_OPTIONS` (from `serveMcpStdio`) for a key shorter than 32 bytes.
   */
  stateSecret?: string | Uint8Array | undefined;
}

/**
 * Serves a toolkit over stdio (what MCP clients spawn from their config) to clients of both
 * revisions: the first message other than a `server/discover` probe decides. An `initialize` opens
 * a 2025-11-25 connection, served as ever (SDK v1, one MCP session), also after a probe (a client
 * negotiating its version falls back to it on the same connection); a request carrying a 2026-07-28
 * `_meta` envelope opens a 2026-07-28 connection, served through SDK v2 (`@modelcontextprotocol/server`,
 * an optional peer) with the server the HTTP handler builds. Without SDK v2 installed, a 2026-07-28
 * request gets the unsupported-version error naming 2025-11-25, and a negotiating client falls back
 * to `initialize`. stdout carries the protocol: log to stderr only. The server closes when stdin ends.
 * It logs to stderr at `info` (`stderrLogger()`: serving, connections opened and closed, refused
 * requests) unless `logger` names another logger, or `false` for none.
 *
 * @example
 * // server.ts, started by the MCP client
 * const mcp = await serveMcpStdio(toolkit, { name: 'weather', version: '1.0.0' });
 * process.on('SIGTERM', () => void mcp.close());
 */
export async function serveMcpStdio(toolkit: Toolkit, options: McpStdioOptions): Promise<McpServerHandle> {
  const { stdin, stdout, stateSecret, logger: given, ...rest } = options;
  const logger = checkedLogger(given ?? stderrLogger(), 'serveMcpStdio({ logger })');
  const serverOptions = { ...rest, logger: logger ?? (false as const) };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js') as StdioModule;
  const source = stdin ?? process.stdin;
  const output = stdout ?? process.stdout;
  const sdk = loadServerSdk();
  // a bad key is refused now, not when a 2026-07-28 client first connects
  if (stateSecret !== undefined) resolveStateSecret(stateSecret);
  const mcp = createMcpServer(toolkit, serverOptions);
  // a server/discover probe goes to the 2026-07-28 server started for it; a fallback initialize closes that server again
  let probed: { input: PassThrough; served: { close(): Promise<void> } } | undefined;
  const onDiscover =
    sdk === undefined
      ? undefined
      : (line: Buffer): void => {
          if (probed === undefined) {
            const input = new PassThrough();
            probed = { input, served: serveModernStdio(sdk, toolkit, { ...serverOptions, stateSecret }, input, output) };
          }
          probed.input.write(Buffer.concat([line, NEWLINE]));
        };
  if (logger) writeLog(logger, 'info', { event: 'mcp_stdio_serving', server: serverOptions.name, version: serverOptions.version, tools: toolkit.getActiveTools().length }, `MCP server ${serverOptions.name} ${serverOptions.version} serving over stdio`);
  const opening = readStdioOpening(source, output, { modern: sdk !== undefined, maxLineBytes: MAX_OPENING_LINE_BYTES, onDiscover });
  let closeModern: (() => Promise<void>) | undefined;
  const served = opening.opened.then(async (opened) => {
    if (opened === undefined) {
      // stdin ended (or the server closed) after probes only
      probed?.input.end();
      await probed?.served.close();
      return mcp.close();
    }
    if (opened.era === 'modern' && sdk !== undefined) {
      if (logger) writeLog(logger, 'info', { event: 'mcp_connection_opened', server: serverOptions.name, transport: 'stdio', revision: '2026-07-28' }, 'MCP connection opened (2026-07-28)');
      if (probed !== undefined) opened.input.pipe(probed.input);
      closeModern = (probed?.served ?? serveModernStdio(sdk, toolkit, { ...serverOptions, stateSecret }, opened.input, output)).close;
      return;
    }
    if (probed !== undefined) {
      probed.input.end();
      await probed.served.close();
    }
    await mcp.connect(new StdioServerTransport(opened.input, output));
    // the client closing our stdin ends the session
    opened.input.once('end', () => void mcp.close().catch(() => undefined));
  });
  source.once('end', () => void served.then(() => closeModern?.()).catch(() => undefined));
  return {
    get server() {
      return mcp.server;
    },
    get view() {
      return mcp.view;
    },
    connect: (transport) => mcp.connect(transport),
    close: async () => {
      opening.stop();
      await served.catch(() => undefined);
      await Promise.all([mcp.close(), (closeModern ?? probed?.served.close)?.()]);
    },
  };
}
