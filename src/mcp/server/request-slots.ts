import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { quoteInput } from '../../utils/quote-input';
import { McpRequestError } from './mcp-catalog-support';

/** @internal Default of `McpServerOptions.maxConcurrentCalls`. */
export const DEFAULT_MAX_CONCURRENT_CALLS = 32;

/**
 * @internal The requests that run application code — `tools/call`, `resources/read`,
 * `prompts/get`, `completion/complete` — running at once, per owner (a connection; under
 * 2026-07-28 over HTTP, a principal or an anonymous client's address), bounded by
 * `maxConcurrentCalls`: one more is refused at once and runs nothing.
 */
export class RequestSlots {
  private readonly running = new Map<string, number>();
  /** When the last request ended (`Date.now()`, 0 before any). */
  lastEnded = 0;

  /** @param onFull told of each request refused because all of its owner's slots are in use. */
  constructor(
    readonly max: number = DEFAULT_MAX_CONCURRENT_CALLS,
    private readonly onFull?: () => void,
  ) {}

  /** How many requests of `owner` run now. */
  count(owner = ''): number {
    return this.running.get(owner) ?? 0;
  }

  /** Takes a slot of `owner`; false (nothing taken) when all of them are in use. */
  take(owner = ''): boolean {
    const running = this.count(owner);
    if (running >= this.max) {
      this.onFull?.();
      return false;
    }
    this.running.set(owner, running + 1);
    return true;
  }

  /** Gives back a slot {@link take} gave. */
  free(owner = ''): void {
    const left = this.count(owner) - 1;
    if (left > 0) this.running.set(owner, left);
    else this.running.delete(owner);
    this.lastEnded = Date.now();
  }

  /**
   * Runs `work` in a slot of `owner`; when there is none, rejects at once with the JSON-RPC error
   * of {@link tooManyRequests} (`what` names the request in it) and `work` does not run.
   */
  async run<T>(owner: string, what: string, work: () => T | Promise<T>): Promise<T> {
    if (!this.take(owner)) throw tooManyRequests(this.max, what);
    try {
      return await work();
    } finally {
      this.free(owner);
    }
  }
}

/**
 * @internal The JSON-RPC error (-32603, `data.reason: 'busy'`) of a `resources/read`, `prompts/get`
 * or `completion/complete` refused because `max` requests of its client are running.
 */
export function tooManyRequests(max: number, what: string): McpRequestError {
  return new McpRequestError(
    ErrorCode.InternalError,
    `Too many requests at once: ${max} requests of this client are still running (the server's maxConcurrentCalls), so ${what} did not run. ` +
      'Wait for one of them to finish, then send it again.',
    { reason: 'busy', maxConcurrentCalls: max },
  );
}

/** @internal How a refused request reads in {@link tooManyRequests}: its method and what it names, quoted and bounded. */
export function requestLabel(method: string, name: string): string {
  return `${method} of ${quoteInput(name)}`;
}
