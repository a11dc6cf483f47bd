/** @internal What {@link endClient} needs of an ioredis client (structural: no ioredis import here). */
export interface EndableClient {
  readonly status: string;
  disconnect(): void;
  once(event: 'end', listener: () => void): unknown;
}

/** @internal Ends an ioredis `client` now (no reconnect) and resolves when its connection is gone (at most 1 s). */
export function endClient(client: EndableClient): Promise<void> {
  const { status } = client;
  if (status === 'end') return Promise.resolve();
  if (status !== 'ready' && status !== 'connect') {
    // never connected, or between attempts: no socket to wait for
    client.disconnect();
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1_000).unref();
    client.once('end', () => {
      clearTimeout(timer);
      resolve();
    });
    client.disconnect();
  });
}
