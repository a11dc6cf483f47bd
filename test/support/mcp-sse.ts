import { request } from 'node:http';
import { POST_HEADERS, post } from './mcp-http';

/** One SSE event as a raw client sees it (`data` is `''` for a priming event). */
export interface SseEvent {
  readonly id?: string;
  readonly retry?: number;
  readonly data: string;
}

/** What {@link readSse} read. */
export interface SseAnswer {
  readonly status: number;
  /** The body, when the answer was not an event stream (an error). */
  readonly text: string;
  readonly events: SseEvent[];
  /** True when the server ended the stream (false when `until` stopped the reading). */
  readonly ended: boolean;
}

function parseBlock(block: string): SseEvent | undefined {
  let id: string | undefined;
  let retry: number | undefined;
  const data: string[] = [];
  let field = false;
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    field = true;
    if (name === 'id') id = value;
    else if (name === 'retry') retry = Number(value);
    else if (name === 'data') data.push(value);
  }
  if (!field) return undefined;
  return { ...(id !== undefined ? { id } : {}), ...(retry !== undefined ? { retry } : {}), data: data.join('\n') };
}

/**
 * Sends a request with node:http and reads its SSE events until the server ends the stream or
 * `until` accepts an event (then the connection is closed), within `timeoutMs`.
 */
export function readSse(
  url: URL,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  until: (event: SseEvent) => boolean = () => false,
  timeoutMs = 15_000,
): Promise<SseAnswer> {
  return new Promise((resolve, reject) => {
    const headers = init.method === 'POST' ? { ...POST_HEADERS, ...init.headers } : { accept: 'text/event-stream', ...init.headers };
    const req = request(url, { method: init.method, headers }, (res) => {
      const events: SseEvent[] = [];
      let buffer = '';
      let done = false;
      const finish = (ended: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (!ended) req.destroy();
        resolve({ status: res.statusCode ?? 0, text: buffer, events, ended });
      };
      const timer = setTimeout(() => {
        done = true;
        req.destroy();
        reject(new Error(`no end of the SSE stream within ${timeoutMs} ms; read so far: ${JSON.stringify(events)}`));
      }, timeoutMs);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!String(res.headers['content-type']).includes('text/event-stream')) {
          buffer += chunk;
          return;
        }
        buffer += chunk;
        let cut: number;
        while (!done && (cut = buffer.indexOf('\n\n')) >= 0) {
          const event = parseBlock(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
          if (event === undefined) continue;
          events.push(event);
          if (until(event)) finish(false);
        }
      });
      res.on('end', () => finish(true));
      res.on('error', () => finish(true));
    });
    req.on('error', (error) => reject(error));
    req.end(init.body);
  });
}

/** The JSON-RPC message of an event (`undefined` for a priming event). */
export function messageOf(event: SseEvent): { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> } | undefined {
  return event.data === '' ? undefined : JSON.parse(event.data);
}

/** Starts a session as a client on `protocolVersion` (initialize + initialized) with node:http; the headers of its later requests. */
export async function sessionHeaders(url: URL, protocolVersion = '2025-11-25'): Promise<Record<string, string>> {
  const init = await post(
    url,
    JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  );
  if (init.status !== 200 || !init.sessionId) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  const headers = { 'mcp-session-id': init.sessionId, 'mcp-protocol-version': protocolVersion };
  await post(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers);
  return headers;
}
