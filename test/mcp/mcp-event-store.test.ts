import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { checkedEventStoreLimits, McpEventStores } from '../../src/mcp/transports/mcp-event-store';

/** The built-in event store on its own: expiry on virtual time, eviction order, per-session ids, release. */
const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });

async function replay(store: ReturnType<McpEventStores['forSession']>, after: string): Promise<unknown[]> {
  const sent: unknown[] = [];
  await store.replayEventsAfter(after, { send: async (_id, message) => void sent.push((message as { params?: { data?: unknown } }).params?.data) });
  return sent;
}

afterEach(() => jest.useRealTimers());

describe('McpEventStores', () => {
  test('events expire after eventTtlMs, checked on the next store or lookup (no timer)', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const stores = new McpEventStores(checkedEventStoreLimits({ eventTtlMs: 60_000 }));
    const store = stores.forSession('s1');
    const first = await store.storeEvent('a', note(1));
    await store.storeEvent('a', note(2));
    expect(jest.getTimerCount()).toBe(0);
    jest.setSystemTime(1_000_000 + 59_999);
    expect(await replay(store, first)).toEqual([2]);
    jest.setSystemTime(1_000_000 + 60_000);
    expect(await store.getStreamIdForEventId!(first)).toBeUndefined();
    expect(stores.stats).toEqual({ events: 0, bytes: 0 });
  });

  test('per-session bound: the session’s oldest go first, other sessions keep theirs', async () => {
    const stores = new McpEventStores(checkedEventStoreLimits({ maxEventsPerSession: 3 }));
    const a = stores.forSession('a');
    const b = stores.forSession('b');
    const b1 = await b.storeEvent('x', note(100));
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push(await a.storeEvent(i % 2 ? 'odd' : 'even', note(i)));
    expect(stores.stats.events).toBe(4);
    expect(stores.knows('a', ids[6])).toBe(false);
    expect(stores.knows('a', ids[7])).toBe(true);
    expect(await replay(a, ids[7])).toEqual([9]);
    expect(stores.knows('b', b1)).toBe(true);
    // an id is known only to the session that issued it
    expect(stores.knows('b', ids[9])).toBe(false);
    expect(await b.getStreamIdForEventId!(ids[9])).toBeUndefined();
    await expect(b.replayEventsAfter(ids[9], { send: async () => undefined })).rejects.toThrow(/Unknown Last-Event-ID/);
  });

  test('overall bound by bytes: the oldest of any session go first; stats stay within it', async () => {
    const stores = new McpEventStores(checkedEventStoreLimits({ maxBytes: 4_000 }));
    for (let i = 0; i < 200; i++) await stores.forSession(`s${i % 7}`).storeEvent('x', note(i));
    expect(stores.stats.bytes).toBeLessThanOrEqual(4_000);
    expect(stores.stats.events).toBeGreaterThan(5);
  });

  test('release forgets a session and stores nothing for it afterwards', async () => {
    const stores = new McpEventStores(checkedEventStoreLimits({}));
    const store = stores.forSession('gone');
    await store.storeEvent('x', note(1));
    stores.release('gone');
    expect(stores.stats).toEqual({ events: 0, bytes: 0 });
    await store.storeEvent('x', note(2));
    expect(stores.stats).toEqual({ events: 0, bytes: 0 });
  });
});
