/**
 * `toolwright/mcp`: serve a toolkit to any MCP client, and import any MCP server's tools into a
 * toolkit. Needs the optional peer dependency `@modelcontextprotocol/sdk` (1.x).
 */
import './require-sdk';
export { createMcpServer } from './mcp-server';
export type { McpServerHandle, McpServerOptions } from './mcp-server';
export type { McpTaskOptions } from './mcp-tasks';
export type { McpRequestInfo } from './mcp-tool-call';
export { serveMcpStdio } from './mcp-stdio';
export type { McpStdioOptions } from './mcp-stdio';
export { createMcpHttpHandler, serveMcpHttp } from './mcp-http';
export type { McpHttpHandler, McpHttpServeOptions, McpHttpServer } from './mcp-http';
export type { McpHttpOptions } from './mcp-http-options';
export type { McpResumabilityOptions } from './mcp-http-resumability';
export type { McpEventStoreLimits } from './mcp-event-store';
export { McpPrincipal, bearerAuth } from './mcp-principal';
export type { BearerAuthOptions, McpAuthenticate, McpTokenVerdict } from './mcp-principal';
export { importMcpTools } from './import-mcp-tools';
export { MCP_IMPORT_LIMITS } from './mcp-import-options';
export type { McpImportClient, McpImportHandle, McpImportOptions, McpImportTaskApi, McpTaskStreamMessage } from './mcp-import-options';
export type { McpImportReport, McpImportedTool, McpImportSkipped, McpImportSkipCode } from './mcp-import-report';
export { MCP_TOOL_OPTIONS, withMcpOptions } from './mcp-tool-options';
export type { McpToolOptions, McpToolHints, McpAgentTool, McpTaskSupport, OutputShape } from './mcp-tool-options';
