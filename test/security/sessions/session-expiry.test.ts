import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit, ToolkitError } from '../../../src';

/** Regression: an expired session kept working (calls, toggles) until some lookup happened to sweep it. */
/** How often `wipe` ran: the promise is that an expired session does not run it, whatever it answers. */
let wipes = 0;

function setup() {
  wipes = 0;
  const toolkit = new Toolkit({ container: new Container(), sessionTtlMs: 1_000 });
  toolkit.createToolGroup('admin', 'Admin', false);
  const wipe = () => {
    wipes++;
    return 'wiped';
  };
  toolkit.registerTool({ name: 'wipe', description: 'Wipe', parameters: { type: 'object', properties: {} }, execute: wipe }, { group: 'admin' });
  return toolkit;
}

describe('security: an expired session stops at once', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('a held reference answers SESSION_CLOSED after its TTL, with no lookup or sweep in between', async () => {
    const toolkit = setup();
    const session = toolkit.session('s1');
    session.updateToolGroups(['admin'], true);
    expect((await session.callTool({ id: 'a', name: 'wipe', arguments: {} })).forLLM).toBe('wiped');
    jest.setSystemTime(1_000_000 + 1_001);
    const late = await session.callTool({ id: 'b', name: 'wipe', arguments: {} });
    expect(late.error?.code).toBe('SESSION_CLOSED');
    expect(wipes).toBe(1);
    expect(session.closed).toBe(true);
    expect(() => session.updateToolGroups(['admin'], false)).toThrow(ToolkitError);
    await expect(session.activateSkill('none')).rejects.toThrow(/closed/);
  });

  it('expiry is checked on use: closed state is visible to closed, getSessionIds() and lookups', async () => {
    const toolkit = setup();
    const session = toolkit.session('s1');
    jest.setSystemTime(1_000_000 + 1_500);
    expect(session.closed).toBe(true);
    expect(toolkit.getSessionIds()).toEqual([]);
    const fresh = toolkit.session('s1');
    expect(fresh).not.toBe(session);
    expect(fresh.getActiveGroups()).toEqual([]); // a new session starts from the toolkit's groups: admin is off
    expect((await fresh.callTool({ id: 'c', name: 'wipe', arguments: {} })).error?.code).toBe('TOOL_DISABLED');
    expect(wipes).toBe(0);
  });

  it('use restarts the TTL', async () => {
    const toolkit = setup();
    const session = toolkit.session('s1');
    for (let i = 0; i < 5; i++) {
      jest.setSystemTime(Date.now() + 900);
      expect((await session.callTool({ id: `k${i}`, name: 'missing', arguments: {} })).error?.code).toBe('UNKNOWN_TOOL');
    }
    expect(session.closed).toBe(false);
  });
});
