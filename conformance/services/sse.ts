import { setTimeout as sleep } from 'node:timers/promises';
import { Tool, ToolEmitter, ToolService } from '../../src';

/**
 * The tool of the conformance suite's `server-sse-polling` scenario (SEP-1699), written as a user
 * writes a long call that lets the client poll: the server runs with `resumability` on, so the
 * call's stream opens with a priming event (an event id and the `retry` delay); the tool closes the
 * stream through its injected `ToolEmitter` and finishes a little later, and the client receives
 * the result by reconnecting with `Last-Event-ID`.
 */
@ToolService({ group: 'conformance' })
export class ConformanceSseService {
  /** `server-sse-polling`: closes its SSE stream mid-call, then answers. */
  @Tool({ name: 'test_reconnection', description: 'Closes its SSE stream mid-call; the client reconnects for the result' })
  async reconnection(emitter: ToolEmitter): Promise<string> {
    emitter.closeStream();
    await sleep(100);
    return 'Reconnection test completed successfully';
  }
}
