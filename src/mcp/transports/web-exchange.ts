import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * @internal A web `Request` for a node:http request whose body the handler has already read (it
 * travels separately, parsed): the method, the headers and the path; `signal` fires when the
 * client goes away, which ends streams the SDK serves for it.
 */
export function toWebRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i], raw[i + 1]);
    } catch {
      // a header value the fetch API refuses (the HTTP parser accepted it) is left out
    }
  }
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://localhost');
  } catch {
    url = new URL('http://localhost/');
  }
  return new Request(url, { method: req.method ?? 'POST', headers, signal });
}

/** @internal An AbortSignal that fires once `res` closes before it was completely written (the client went away). */
export function abortedWhenGone(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Resolves once `res` can take more (`drain`) or will take nothing more (`close`). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/**
 * @internal Writes a web `Response` to a node:http response: status and headers at once (an SSE
 * stream's headers must reach the client before its first event), then the body chunk by chunk
 * with backpressure; when the client goes away the body is cancelled, which ends what produces it.
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  const body = response.body;
  if (body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  res.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drained(res);
    }
  } catch {
    // the producer failed or was cancelled: end what was sent
  } finally {
    res.off('close', cancel);
    if (!res.writableEnded) res.end();
  }
}
