import { providerError } from './provider-support';

/**
 * @internal Opens an SDK stream on first use and iterates it, a failure of either wrapped like any
 * SDK call (`PROVIDER_FAILED` with status and message, `ABORTED` when `signal` fired). Returning
 * early returns the SDK stream, which aborts its request. A plain iterator, not a generator: one
 * promise per chunk, no generator queue.
 */
export function sdkStream<T>(
  vendor: string,
  operation: string,
  signal: AbortSignal | undefined,
  open: () => PromiseLike<AsyncIterable<T>>,
): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]: (): AsyncIterator<T> => {
      let inner: AsyncIterator<T> | undefined;
      const fail = (error: unknown): never => {
        throw providerError(vendor, inner === undefined ? operation : `${operation} stream`, error, signal);
      };
      const started = (async () => (inner = (await open())[Symbol.asyncIterator]()))();
      return {
        next: () => (inner !== undefined ? inner.next() : started.then((it) => it.next())).then(undefined, fail),
        return: async (): Promise<IteratorResult<T>> => {
          const it = inner ?? (await started.catch(() => undefined));
          await it?.return?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}
