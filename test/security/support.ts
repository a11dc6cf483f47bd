import { ToolkitError, type ToolkitErrorCode } from '../../src';

/** Awaits `promise` and returns the ToolkitError of `code` it rejects with (anything else fails the test). */
export async function rejectsWith(promise: Promise<unknown>, code: ToolkitErrorCode): Promise<ToolkitError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolkitError.is(error, code)) throw new Error(`expected ToolkitError ${code}, got ${String(error)}`);
  return error;
}
