import type { AgentTool } from '../../src';

/**
 * A 2026-07-28 JSON-RPC request sent by hand over Streamable HTTP: the SDK v2 client (2.4) has no
 * client side of the tasks extension (it refuses a `resultType: 'task'` answer as an unsupported
 * result type), so the tests create tasks as the conformance suite does, with the revision's
 * `_meta` envelope and its `Mcp-Method` / `Mcp-Name` headers.
 */

/** The extension the tests declare. */
export const TASKS = 'io.modelcontextprotocol/tasks';

/** Options of {@link rawRequest}. */
export interface RawOptions {
  /** Declare the tasks extension in the request's client capabilities (default true). */
  readonly tasks?: boolean;
  /** Extra HTTP headers (e.g. `authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The `Mcp-Name` header to send instead of the one the body implies (a mismatch test). */
  readonly mcpName?: string;
  /** Further client capabilities to declare (e.g. `{ elicitation: {} }`). */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** Further `_meta` keys of the request (e.g. a conversation handle). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

let nextId = 1;

/** The JSON-RPC answer of one request: `result` or `error`, and the HTTP status. */
export interface RawAnswer {
  readonly status: number;
  readonly result?: Record<string, unknown> & { taskId?: string; status?: string };
  readonly error?: { code: number; message: string; data?: unknown };
}

/** Sends `method` with `params` to `url` as a 2026-07-28 client would, and reads the JSON-RPC answer (JSON or SSE). */
export async function rawRequest(url: URL, method: string, params: Record<string, unknown>, options: RawOptions = {}): Promise<RawAnswer> {
  const capabilities = { ...options.capabilities, ...(options.tasks === false ? {} : { extensions: { [TASKS]: {} } }) };
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        ...options.meta,
        'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      },
    },
  };
  const named = [params.name, params.uri, params.taskId].find((value): value is string => typeof value === 'string');
  const name = options.mcpName ?? named;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
      ...options.headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)) as { id?: number })
        .find((message) => message.id === body.id)
    : (JSON.parse(text) as unknown);
  const message = (json ?? {}) as { result?: RawAnswer['result']; error?: RawAnswer['error'] };
  return { status: response.status, ...(message.result !== undefined && { result: message.result }), ...(message.error !== undefined && { error: message.error }) };
}

/** A read-only tool that asks the client (an elicitation) before it runs; `peeks()` counts its runs past the question. */
export function peekTool(): { tool: AgentTool; peeks: () => number } {
  let peeks = 0;
  const tool: AgentTool = {
    name: 'peek',
    description: 'Peeks after asking',
    parameters: { type: 'object', properties: {} },
    behaviour: { annotations: { readOnly: true } },
    execute: async (_args, ctx) => {
      await ctx.client!.elicit({ message: 'Peek?', requestedSchema: { type: 'object', properties: {} } });
      return `peeked ${++peeks}`;
    },
  };
  return { tool, peeks: () => peeks };
}
