import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { quoteInput } from '../../utils/quote-input';

/** The most characters of a client-sent header value echoed back in an error. */
const ECHO_LIMIT = 100;

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `host[:port]` parsed as a URL authority, or `undefined` when it is not one. */
function parseAuthority(authority: string): URL | undefined {
  try {
    const url = new URL(`http://${authority}`);
    return url.host.toLowerCase() === authority.toLowerCase().replace(/:80$/, '') ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The port of `url`, or its scheme's default. */
function effectivePort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/**
 * @internal The `Host` and `Origin` checks of the MCP HTTP handler (DNS-rebinding and cross-site
 * protection), done before the SDK transport sees the request: they replace the transport's
 * deprecated `allowedHosts` / `allowedOrigins` / `enableDnsRebindingProtection` options.
 */
export class McpHttpGuard {
  private readonly hosts: ReadonlySet<string> | undefined;
  private readonly origins: ReadonlySet<string>;

  constructor(allowedHosts: readonly string[] | undefined, allowedOrigins: readonly string[] | undefined) {
    this.hosts = allowedHosts === undefined ? undefined : new Set(allowedHosts.map((h) => h.toLowerCase()));
    this.origins = new Set((allowedOrigins ?? []).map((o) => McpHttpGuard.normalizeOrigin(o)));
  }

  /**
   * Why the request must be refused (HTTP 403), or `undefined` when it passes. The `Host`
   * header must be in `allowedHosts`, when set (an entry with a port matches that host and port,
   * one without matches the host on any port); without it, a request that arrived on a loopback
   * interface must name a loopback host and the port it arrived on. A request without `Origin` (not a browser) passes;
   * otherwise the origin must be in `allowedOrigins` or be the server's own (the scheme, host and
   * port the request was sent to, as its `Host` header says).
   */
  refusal(req: IncomingMessage): string | undefined {
    const host = singleHeader(req.headers.host);
    const authority = host === undefined ? undefined : parseAuthority(host);
    const scheme = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true ? 'https:' : 'http:';
    if (this.hosts) {
      if (host === undefined) return 'Forbidden: the Host header is missing.';
      const allowed = authority !== undefined && (this.hosts.has(host.toLowerCase()) || this.hosts.has(authority.hostname));
      if (!allowed) return `Forbidden: Host ${quoteInput(host, ECHO_LIMIT)} is not allowed (allowedHosts).`;
    } else if (isLoopback(req.socket?.localAddress)) {
      const refused = loopbackHostRefusal(req, host, authority, scheme);
      if (refused !== undefined) return refused;
    }
    const origin = singleHeader(req.headers.origin);
    if (origin === undefined || this.origins.has(McpHttpGuard.normalizeOrigin(origin))) return undefined;
    if (authority !== undefined && McpHttpGuard.sameOrigin(origin, authority, scheme)) return undefined;
    return `Forbidden: Origin ${quoteInput(origin, ECHO_LIMIT)} is not allowed; only the server's own origin and allowedOrigins may call it from a browser.`;
  }

  /** `https://a.example:443/` and `HTTPS://A.EXAMPLE` are the same origin: compare their serializations. */
  private static normalizeOrigin(origin: string): string {
    try {
      const url = new URL(origin);
      return url.origin === 'null' ? origin.toLowerCase() : url.origin;
    } catch {
      return origin.toLowerCase();
    }
  }

  /**
   * True when `origin` is the server's own: the scheme the request came in on (`https:` on a TLS
   * socket), the `Host` header's host, and its port (or the scheme's default when it names none).
   * Behind a TLS-terminating proxy the socket is plain HTTP: list the public origin in
   * `allowedOrigins` there.
   */
  private static sameOrigin(origin: string, authority: URL, scheme: 'http:' | 'https:'): boolean {
    try {
      const url = new URL(origin);
      const port = authority.port || (scheme === 'https:' ? '443' : '80');
      return url.protocol === scheme && url.hostname === authority.hostname && effectivePort(url) === port;
    } catch {
      return false;
    }
  }
}

/** `address` as a `Host` header names it: IPv6 in brackets, an IPv4-mapped IPv6 address as IPv4. */
function hostNameOf(address: string): string {
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4) return lower.slice(7);
  return isIP(lower) === 6 ? `[${lower}]` : lower;
}

/**
 * Why a request that arrived on a loopback interface must be refused when no `allowedHosts` was
 * given: its `Host` must be `localhost`, `127.0.0.1`, `[::1]` or the address it arrived on, with
 * the port it arrived on. A DNS-rebinding page names its own host, so it is refused wherever the
 * handler is mounted; a reverse proxy that forwards the public name needs `allowedHosts`.
 */
function loopbackHostRefusal(req: IncomingMessage, host: string | undefined, authority: URL | undefined, scheme: 'http:' | 'https:'): string | undefined {
  const port = String(req.socket.localPort ?? '');
  const names = new Set(['localhost', '127.0.0.1', '[::1]', hostNameOf(req.socket.localAddress ?? '')]);
  if (authority !== undefined && names.has(authority.hostname) && (authority.port || (scheme === 'https:' ? '443' : '80')) === port) return undefined;
  const what = host === undefined ? 'the Host header is missing' : `Host ${quoteInput(host, ECHO_LIMIT)} is not allowed`;
  return (
    `Forbidden: ${what}. This endpoint listens on loopback and accepts only localhost, 127.0.0.1 and [::1] on port ${port} (DNS-rebinding protection); ` +
    'a server behind a reverse proxy or reached by another name must list its public host in allowedHosts.'
  );
}

/** @internal True for a loopback interface address or name (`127.0.0.0/8`, `::1`, `localhost`, IPv4-mapped loopback). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}
