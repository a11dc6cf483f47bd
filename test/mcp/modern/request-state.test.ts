import { memoryMcpStateStore } from '../../../src/mcp/server/modern/state-store';
import { RequestStateCodec, RequestStateRefusal, type RequestStateBinding } from '../../../src/mcp/server/modern/request-state';

const SECRET = 'a-test-secret-of-at-least-32-bytes!!';
const BINDING: RequestStateBinding = { principal: 'alice', tool: 'refund', arguments: { order: 'A-1', amount: 20 } };
const ROUND = { answers: [{ q: 'h1', a: { action: 'accept', content: { ok: true } } }], asked: [{ key: 'elicitation-x', q: 'h2', m: 'elicitation/create' as const }] };

function codec(options: { now?: () => number; ttlMs?: number; secret?: string } = {}) {
  const store = memoryMcpStateStore();
  return { store, codec: new RequestStateCodec({ secret: options.secret ?? SECRET, store, ...options }) };
}

function refusalOf(run: () => unknown): RequestStateRefusal {
  try {
    run();
  } catch (error) {
    if (error instanceof RequestStateRefusal) return error;
    throw error;
  }
  throw new Error('not refused');
}

/** The state with one byte of its signed body changed. */
function flipped(state: string, at: number): string {
  const chars = [...state];
  chars[at] = chars[at] === 'A' ? 'B' : 'A';
  return chars.join('');
}

describe('requestState codec (signed, bound, expiring, one use)', () => {
  test('a minted state verifies for its own call and gives back what it recorded; arguments are bound in canonical form', () => {
    const { codec: c } = codec();
    const state = c.mint(BINDING, ROUND);
    const verified = c.verify(state, { ...BINDING, arguments: { amount: 20, order: 'A-1' } });
    expect(verified.answers).toEqual(ROUND.answers);
    expect(verified.asked).toEqual(ROUND.asked);
  });

  test('the client can read it but it names no principal id: the principal is a keyed tag', () => {
    const { codec: c } = codec();
    const state = c.mint({ ...BINDING, principal: 'alice@example.com' }, ROUND);
    const body = Buffer.from(state.slice(4, state.lastIndexOf('.')), 'base64url').toString('utf8');
    expect(body).not.toContain('alice');
    expect(JSON.parse(body)).toMatchObject({ t: 'refund' });
  });

  test('attacks are refused with -32602 and a specific, short message', () => {
    const { codec: c } = codec();
    const state = c.mint(BINDING, ROUND);
    const cases: [string, () => unknown, RegExp][] = [
      ['one byte of the body flipped', () => c.verify(flipped(state, 10), BINDING), /signature does not match/],
      ['one byte of the MAC flipped', () => c.verify(flipped(state, state.length - 3), BINDING), /signature does not match/],
      ['appended text', () => c.verify(`${state}-TAMPERED`, BINDING), /signature does not match|not a state/],
      ['signed with another key', () => codec({ secret: 'another-secret-of-at-least-32-bytes!' }).codec.verify(state, BINDING), /signature does not match/],
      ['another principal', () => c.verify(state, { ...BINDING, principal: 'mallory' }), /another principal/],
      ['anonymous for a principal’s state', () => c.verify(state, { ...BINDING, principal: undefined }), /another principal/],
      ['another tool', () => c.verify(state, { ...BINDING, tool: 'delete_all' }), /another tool/],
      ['other arguments', () => c.verify(state, { ...BINDING, arguments: { order: 'A-1', amount: 2000 } }), /other arguments/],
      ['not a string', () => c.verify({ forged: true }, BINDING), /must be a string/],
      ['garbage', () => c.verify('tw1..', BINDING), /not a state this server issued/],
    ];
    for (const [, run, message] of cases) {
      const refusal = refusalOf(run);
      expect(refusal.code).toBe(-32602);
      expect(refusal.message).toMatch(message);
      expect(refusal.message.length).toBeLessThan(200);
    }
  });

  test('a 1 MB state is refused for its size before any crypto or JSON work', () => {
    const { codec: c } = codec();
    const huge = `tw1.${'A'.repeat(1024 * 1024)}.x`;
    const started = process.hrtime.bigint();
    const refusal = refusalOf(() => c.verify(huge, BINDING));
    expect(refusal.message).toMatch(/too large \(1048582 characters; the most is 131072\)/);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(50);
  });

  test('an expired state is refused (injected clock)', () => {
    let now = 1_000_000;
    const { codec: c } = codec({ now: () => now, ttlMs: 60_000 });
    const state = c.mint(BINDING, ROUND);
    now += 59_999;
    expect(() => c.verify(state, BINDING)).not.toThrow();
    now += 1;
    expect(refusalOf(() => c.verify(state, BINDING)).message).toMatch(/expired/);
  });

  test('a state answers one retry: its nonce is consumed in the shared store (a second process refuses the replay)', async () => {
    const store = memoryMcpStateStore();
    const first = new RequestStateCodec({ secret: SECRET, store });
    const second = new RequestStateCodec({ secret: SECRET, store });
    const state = first.mint(BINDING, ROUND);
    await first.consume(first.verify(state, BINDING));
    await expect(second.consume(second.verify(state, BINDING))).rejects.toThrow(/used before/);
  });
});
