/**
 * Lets a decorated tool finish a call in the background — the decorator counterpart of the Go
 * design's `AsyncTool`. Declare a parameter of this type (no `@ToolParam`); the toolkit injects
 * a handle per call. Return `asyncResult('…')` at once, and call `complete(value)` (or
 * `fail(error)`) when the work is done. The completion surfaces on `toolkit.events$` as an
 * `async_completed` event and reaches the caller's `onAsyncComplete`, as a `ToolResult` whose
 * `toolCallId` is the call id — so an agent loop can add a follow-up message.
 *
 * `complete` takes what a tool may return (a string, a `ToolResult`, any JSON value) and converts
 * it the same way; preset values are redacted and `maxResultChars` applies. Only the first
 * completion counts, and only when the call answered with an async result: if the call failed,
 * timed out or returned a normal result, `complete` returns `false` and does nothing. A
 * completion that arrives before the call has answered is held and delivered right after the
 * answer, so `async_completed` always follows the call's `call_succeeded`.
 *
 * `AgentTool` objects get the same handle with `ctx.context.get(AsyncCompletion)`.
 *
 * @example
 * @Tool({ description: 'Export a table; the download link follows when ready' })
 * exportTable(@ToolParam({ name: 'table' }) table: string, done: AsyncCompletion) {
 *   this.exports.run(table).then((url) => done.complete(`Export of ${table} ready: ${url}`), (e) => done.fail(e));
 *   return asyncResult(`Export of ${table} started; the link follows.`);
 * }
 *
 * const result = await toolkit.callTool(call, { onAsyncComplete: (r) => queue.push(r) });
 */
export class AsyncCompletion {
  readonly #deliver: (value: unknown, failed: boolean) => boolean;
  #settled = false;

  /**
   * @internal Created by the executor, one per call; `deliver` hands a completion to the call
   * (false when the call cannot take one: already completed, or not async).
   */
  constructor(
    deliver: (value: unknown, failed: boolean) => boolean,
    /** The id of the call this handle completes. */
    readonly callId: string,
    /** The tool of that call. */
    readonly toolName: string,
  ) {
    this.#deliver = deliver;
  }

  /** True once a completion was accepted. */
  get settled(): boolean {
    return this.#settled;
  }

  /**
   * Completes the call with `value` (converted like a tool's return value).
   *
   * @returns whether the completion was accepted.
   */
  complete(value: unknown): boolean {
    return this.deliver(value, false);
  }

  /**
   * Completes the call with an error result (`EXECUTION_FAILED`) describing `error`.
   *
   * @returns whether the completion was accepted.
   */
  fail(error: unknown): boolean {
    return this.deliver(error, true);
  }

  private deliver(value: unknown, failed: boolean): boolean {
    if (this.#settled) return false;
    const accepted = this.#deliver(value, failed);
    if (accepted) this.#settled = true;
    return accepted;
  }
}
