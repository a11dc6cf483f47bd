import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkedLogger, writeLog, type ToolwrightLogger } from '../../model/logger';

/** The code of the warning emitted when the endpoint is reachable beyond loopback without `authenticate`. */
const EXPOSED_WARNING = 'TOOLWRIGHT_MCP_HTTP_UNAUTHENTICATED';

/** @internal Warns (once per call: the caller decides when) that the endpoint at `where` is open to anyone who can reach it. */
export function warnExposed(where: string): void {
  process.emitWarning(
    `toolwright MCP HTTP endpoint ${where} is reachable beyond loopback without authentication: anyone who can reach it can call the tools. ` +
      "Pass authenticate (e.g. authenticate: bearerAuth(verify)) or listen on '127.0.0.1'.",
    { code: EXPOSED_WARNING },
  );
}

/**
 * @internal What watches each HTTP request for the handler's `logger` (`undefined` without one): a
 * request answered with status 400 or more (refused by the origin or host check, authentication,
 * the session caps, the body limits, an unknown session, the SDK transport) is logged at `warn`
 * with its method, status and client address; never its headers or body.
 *
 * @throws ToolkitError `INVALID_OPTIONS` when `logger` lacks one of its four methods.
 */
export function refusalWatcher(options: { readonly name: string; readonly logger?: ToolwrightLogger | false | undefined }): ((req: IncomingMessage, res: ServerResponse) => void) | undefined {
  const logger = checkedLogger(options.logger, 'createMcpHttpHandler({ logger })');
  if (!logger) return undefined;
  return (req, res) => {
    res.once('finish', () => {
      if (res.statusCode < 400) return;
      const fields = { event: 'mcp_request_refused', server: options.name, method: req.method ?? 'unknown', status: res.statusCode, remoteAddress: req.socket.remoteAddress ?? 'unknown' };
      writeLog(logger, 'warn', fields, `MCP HTTP request refused: ${req.method ?? 'unknown'} answered ${res.statusCode}`);
    });
  };
}
