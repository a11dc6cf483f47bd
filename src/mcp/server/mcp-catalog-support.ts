import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { ToolkitError } from '../../errors';

/** MCP's error code for a resource that does not exist (`resources/read`, `resources/subscribe`). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * @internal A JSON-RPC error a request handler throws: the SDK answers with its `code`, `message`
 * and `data`. Unlike the SDK's `McpError`, the message is not prefixed with "MCP error <code>:"
 * (the client's `McpError` adds that once).
 */
export class McpRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'McpRequestError';
  }
}

/** How many resources, templates or prompts one list page holds. */
export const MCP_PAGE_SIZE = 100;

/**
 * @internal What a failed read, get or completion answers over MCP: `UNKNOWN_RESOURCE` is
 * "resource not found" (-32002, or -32602 where the request names a template: `notFound`),
 * `UNKNOWN_PROMPT` and `INVALID_ARGUMENTS` are invalid params (-32602), any other toolkit fault
 * an internal error (-32603) with its text (which holds no preset value); anything else, a bare
 * internal error.
 */
export function mcpErrorOf(error: unknown, notFound: number = RESOURCE_NOT_FOUND): McpRequestError {
  if (!ToolkitError.is(error)) return new McpRequestError(ErrorCode.InternalError, 'Internal error');
  switch (error.code) {
    case 'UNKNOWN_RESOURCE':
      return new McpRequestError(notFound, error.message);
    case 'UNKNOWN_PROMPT':
    case 'INVALID_ARGUMENTS':
      return new McpRequestError(ErrorCode.InvalidParams, error.message);
    default:
      return new McpRequestError(ErrorCode.InternalError, error.message, { code: error.code });
  }
}

/**
 * @internal One page of `items` from `cursor` (an opaque text this function made) under `key`,
 * with the cursor of the next page when there is one: a `…/list` result.
 *
 * @throws McpRequestError -32602 for a cursor this server did not make (or that is past the end).
 */
export function pageOf<K extends string, T>(key: K, items: readonly T[], cursor: string | undefined): { [P in K]: T[] } & { nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
    start = /^(0|[1-9][0-9]{0,8})$/.test(decoded) ? Number(decoded) : -1;
    if (start < 0 || start > items.length) throw new McpRequestError(ErrorCode.InvalidParams, 'Invalid cursor: list again from the start (no cursor).');
  }
  const end = start + MCP_PAGE_SIZE;
  const page = { [key]: items.slice(start, end) } as { [P in K]: T[] };
  return end < items.length ? { ...page, nextCursor: Buffer.from(String(end)).toString('base64url') } : page;
}
