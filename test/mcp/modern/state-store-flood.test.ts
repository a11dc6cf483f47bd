import { memoryMcpStateStore } from '../../../src/mcp/server/modern/state-store';
import { RequestStateCodec, type RequestStateBinding } from '../../../src/mcp/server/modern/request-state';

/**
 * What a hostile client tries against the in-memory state store: filling it so that a consumed
 * `requestState` nonce (or a task's claim) is evicted and the state answers a second retry.
 */

const SECRET = 'a-test-secret-of-at-least-32-bytes!!';
const BINDING: RequestStateBinding = { principal: 'mallory', tool: 'refund', arguments: { order: 'A-1' } };
const ROUND = { answers: [], asked: [{ key: 'elicitation-x', q: 'h', m: 'elicitation/create' as const }] };

describe('memoryMcpStateStore under a flood', () => {
  test('a consumed state stays consumed however many rounds follow it: a full store refuses new claims instead of forgetting live ones', async () => {
    const store = memoryMcpStateStore({ maxEntries: 8 });
    const codec = new RequestStateCodec({ secret: SECRET, store });
    const replayed = codec.mint(BINDING, ROUND);
    await codec.consume(codec.verify(replayed, BINDING));
    // the attacker completes more rounds than the store holds
    const outcomes: boolean[] = [];
    for (let i = 0; i < 20; i++) {
      const state = codec.verify(codec.mint(BINDING, ROUND), BINDING);
      outcomes.push(await codec.consume(state).then(() => true, () => false));
    }
    expect(outcomes.filter(Boolean)).toHaveLength(7);
    await expect(codec.consume(codec.verify(replayed, BINDING))).rejects.toThrow(/used before/);
  });

  test('a full store refuses a new key (set rejects, setIfAbsent is false), takes replacements, and frees expired entries', async () => {
    const store = memoryMcpStateStore({ maxEntries: 2 });
    expect(await store.setIfAbsent('a', '1', 60_000)).toBe(true);
    await store.set('b', '1', 30);
    expect(await store.setIfAbsent('c', '1', 60_000)).toBe(false);
    await expect(store.set('c', '1', 60_000)).rejects.toThrow(/full \(maxEntries 2\)/);
    await store.set('a', '2', 60_000);
    expect(await store.get('a')).toBe('2');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await store.setIfAbsent('c', '1', 60_000)).toBe(true);
    expect(await store.get('a')).toBe('2');
  });
});
