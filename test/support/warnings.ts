/**
 * The messages of the process warnings of `code` emitted while `fn` runs and until what it
 * scheduled with `setImmediate` has run.
 *
 * Inside Jest a test's `process` is a copy with an event emitter of its own, which never hears
 * the real process's `'warning'` events: this watches `process.emitWarning` instead, letting each
 * call through to Node (which prints it as usual).
 */
export async function warningsDuring(code: string, fn: () => unknown): Promise<string[]> {
  const emit = jest.spyOn(process, 'emitWarning');
  try {
    await fn();
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    return emit.mock.calls
      .filter(([, options]) => typeof options === 'object' && options !== null && (options as { code?: string }).code === code)
      .map(([message]) => String(message));
  } finally {
    emit.mockRestore();
  }
}
