import { ToolkitError, type ToolkitErrorCode } from '../../src';

/** Fails the test unless `value` is a ToolkitError (of `code`, when given); returns it. */
function expectToolkitError(value: unknown, code: ToolkitErrorCode | undefined): ToolkitError {
  if (!ToolkitError.is(value)) throw new Error(`expected a ToolkitError${code === undefined ? '' : ` ${code}`}, got ${String(value)}`);
  expect(value).toBeInstanceOf(ToolkitError);
  if (code !== undefined) expect(value.code).toBe(code);
  expect(value.message).toEqual(expect.any(String));
  return value;
}

/** Runs `fn` and returns the ToolkitError it throws (checking its code, when given). */
export function thrown(fn: () => unknown, code?: ToolkitErrorCode): ToolkitError {
  try {
    fn();
  } catch (e) {
    return expectToolkitError(e, code);
  }
  throw new Error(`expected a ToolkitError${code === undefined ? '' : ` ${code}`}, but nothing was thrown`);
}

/** Awaits `promise` and returns the ToolkitError it rejects with (checking its code, when given). */
export async function rejection(promise: Promise<unknown>, code?: ToolkitErrorCode): Promise<ToolkitError> {
  try {
    await promise;
  } catch (e) {
    return expectToolkitError(e, code);
  }
  throw new Error(`expected a rejection with a ToolkitError${code === undefined ? '' : ` ${code}`}`);
}
