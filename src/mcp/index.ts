/**
 * `toolwright/mcp`: serve a toolkit to any MCP client, and import any MCP server's tools into a
 * toolkit. Needs the optional peer dependency `@modelcontextprotocol/sdk` (1.x); the HTTP handler
 * serves MCP 2026-07-28 too when `@modelcontextprotocol/server` (2.x) is installed.
 */
import './shared/require-sdk';
export { createMcpServer } from './server/mcp-server';
export type { McpServerHandle, McpServerOptions } from './server/mcp-server';
export type { McpTaskOptions } from './server/mcp-tasks';
export type { McpRequestInfo } from './server/mcp-tool-call';
export { serveMcpStdio } from './transports/mcp-stdio';
export type { McpStdioOptions } from './transports/mcp-stdio';
export { stderrLogger } from './shared/stderr-logger';
export type { StderrLoggerOptions } from './shared/stderr-logger';
export { createMcpHttpHandler, serveMcpHttp } from './transports/mcp-http';
export type { McpHttpHandler, McpHttpServeOptions, McpHttpServer } from './transports/mcp-http';
export type { McpHttpOptions } from './transports/mcp-http-options';
export { memoryMcpStateStore } from './server/modern/state-store';
export type { McpStateStore } from './server/modern/state-store';
export { MCP_CONVERSATION_META_KEY } from './server/modern/conversation-handle';
export type { McpResumabilityOptions } from './transports/mcp-http-resumability';
export type { McpEventStoreLimits } from './transports/mcp-event-store';
export { McpPrincipal, bearerAuth } from './shared/mcp-principal';
export type { BearerAuthOptions, McpAuthenticate, McpTokenVerdict } from './shared/mcp-principal';
export { importMcpTools } from './import/import-mcp-tools';
export { MCP_IMPORT_LIMITS } from './import/mcp-import-options';
export type { McpImportClient, McpImportHandle, McpImportOptions, McpImportSdk1Client, McpImportTaskApi, McpTaskStreamMessage } from './import/mcp-import-options';
export type {
  McpImportSdk2Client,
  McpImportSdk2Progress,
  McpImportSdk2RequestOptions,
  McpImportSdk2ResultSchema,
  McpImportSdk2Subscription,
} from './import/sdk2-client';
export type { McpImportReport, McpImportedTool, McpImportSkipped, McpImportSkipCode } from './import/mcp-import-report';
export { MCP_TOOL_OPTIONS, withMcpOptions } from './shared/mcp-tool-options';
export type { McpToolOptions, McpToolHints, McpAgentTool, McpTaskSupport, OutputShape } from './shared/mcp-tool-options';
