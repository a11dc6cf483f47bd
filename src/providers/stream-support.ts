import { providerError } from './provider-support';

/**
 * @internal Opens an SDK stream and iterates it, a failure of either wrapped like any SDK call
 * (`PROVIDER_FAILED` with status and message, `ABORTED` when `signal` fired). Breaking out of the
 * iteration returns the SDK stream, which aborts its request.
 */
export async function* sdkStream<T>(
  vendor: string,
  operation: string,
  signal: AbortSignal | undefined,
  open: () => Promise<AsyncIterable<T>>,
): AsyncGenerator<T> {
  let stream: AsyncIterable<T>;
  try {
    stream = await open();
  } catch (error) {
    throw providerError(vendor, operation, error, signal);
  }
  try {
    for await (const chunk of stream) yield chunk;
  } catch (error) {
    throw providerError(vendor, `${operation} stream`, error, signal);
  }
}
