import { ClientRequests, Tool, ToolParam, ToolService, type AgentTool } from '../../../src';
import { McpPrincipal, bearerAuth, memoryMcpStateStore, serveMcpHttp, withMcpOptions, type McpHttpServer, type McpStateStore } from '../../../src/mcp';
import { Closer, eventually } from '../../support/mcp';
import { rawRequest, type RawAnswer } from '../../support/mcp-modern-raw';
import { freshToolkit } from '../../support/toolkit';

/**
 * The tasks extension through serveMcpHttp for 2026-07-28 clients: tools that support tasks run
 * as tasks of the caller's principal, through the caller's view (the gate holds), with preset
 * values kept out of results and out of the state store; questions park the task until
 * tasks/update answers them, checked against their form.
 */

const SECRET = 'sk-live-TASK-SECRET-90210';
const closer = new Closer();
afterEach(() => closer.closeAll());

@ToolService()
class Vault {
  @Tool({ description: 'Builds a report with the API key' })
  report(@ToolParam({ name: 'title' }) title: string, @ToolParam({ name: 'apiKey' }) apiKey: string): string {
    return `report ${title} signed with ${apiKey}`;
  }

  @Tool({ description: 'Asks the user for a colour' })
  async pickColour(client: ClientRequests): Promise<string> {
    const answer = await client.elicit<{ colour: string }>({ message: 'Which colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string', enum: ['red', 'blue'] } }, required: ['colour'] } });
    return `picked ${answer.content?.colour ?? answer.action}`;
  }
}

function slowTool() {
  const state = { aborted: 0, gates: [] as (() => void)[] };
  const tool: AgentTool = {
    name: 'slow',
    description: 'Slow work',
    parameters: { type: 'object', properties: {} },
    execute: (_args, ctx) =>
      new Promise<string>((resolve) => {
        state.gates.push(() => resolve('slow work done'));
        ctx.signal.addEventListener('abort', () => {
          state.aborted++;
          resolve('aborted');
        });
      }),
  };
  return { tool: withMcpOptions(tool, { taskSupport: 'optional' }), state, release: () => state.gates.shift()?.() };
}

/** A store that remembers every value written to it (to look for secrets). */
function recordingStore(): { store: McpStateStore; written: string[] } {
  const inner = memoryMcpStateStore();
  const written: string[] = [];
  const store: McpStateStore = {
    setIfAbsent: (key, value, ttl) => (written.push(`${key}=${value}`), inner.setIfAbsent(key, value, ttl)),
    set: (key, value, ttl) => (written.push(`${key}=${value}`), inner.set(key, value, ttl)),
    get: (key) => inner.get(key),
    delete: (key) => inner.delete(key),
  };
  return { store, written };
}

const principals = new Map([
  ['t-alice', new McpPrincipal('alice')],
  ['t-bob', new McpPrincipal('bob')],
]);
const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

async function serve() {
  const toolkit = freshToolkit();
  toolkit.registration().tool(new Vault()).presetParameters({ report: { apiKey: SECRET } }).apply();
  const slow = slowTool();
  toolkit.registerTool(slow.tool);
  toolkit.createToolGroup('admin', 'Admin tools', false);
  const wipe: AgentTool = { name: 'wipe', description: 'Wipes', parameters: { type: 'object', properties: {} }, execute: () => 'wiped' };
  toolkit.registerTool(withMcpOptions(wipe, { taskSupport: 'required' }), { group: 'admin' });
  const { store, written } = recordingStore();
  const http: McpHttpServer = closer.add(
    await serveMcpHttp(toolkit, {
      name: 'tasks',
      version: '1',
      authenticate: bearerAuth((t) => principals.get(t)),
      stateStore: store,
      stateSecret: 'a-shared-key-of-at-least-32-bytes!',
      tools: { report: { taskSupport: 'optional' }, pick_colour: { taskSupport: 'optional' } },
      tasks: { pollIntervalMs: 20 },
    }),
  );
  return { url: http.url, slow, written };
}

async function settle(url: URL, taskId: string, token = 't-alice'): Promise<RawAnswer> {
  let got!: RawAnswer;
  await eventually(async () => (got = await rawRequest(url, 'tasks/get', { taskId }, as(token))).result?.status !== 'working');
  return got;
}

describe('the tasks extension through serveMcpHttp (2026-07-28)', () => {
  it('runs a task-supporting tool as a task of the caller; the result is redacted, and no preset value reaches the store', async () => {
    const { url, written } = await serve();
    const created = await rawRequest(url, 'tools/call', { name: 'report', arguments: { title: 'Q3' } }, as('t-alice'));
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await settle(url, created.result?.taskId ?? '');
    expect(done.result).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: expect.stringContaining('report Q3 signed with') }] } });
    expect(JSON.stringify(done)).not.toContain(SECRET);
    expect(written.length).toBeGreaterThan(0);
    expect(written.join('\n')).not.toContain(SECRET);
    expect(written.join('\n')).not.toContain('alice');
  });

  it("tells another principal the task does not exist, lets them neither cancel nor answer it, and cancels for its owner (the tool's signal fires)", async () => {
    const { url, slow } = await serve();
    const { result } = await rawRequest(url, 'tools/call', { name: 'slow', arguments: {} }, as('t-alice'));
    const taskId = result?.taskId ?? '';
    const unknown = await rawRequest(url, 'tasks/get', { taskId: 'no-such-task' }, as('t-bob'));
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const tried = await rawRequest(url, method, { taskId, inputResponses: {} }, as('t-bob'));
      expect(tried.error).toEqual(unknown.error);
    }
    expect(slow.state.aborted).toBe(0);
    expect((await rawRequest(url, 'tasks/cancel', { taskId }, as('t-alice'))).result).toMatchObject({ resultType: 'complete' });
    await eventually(() => slow.state.aborted === 1);
    expect((await settle(url, taskId)).result?.status).toBe('cancelled');
  });

  it('parks a question on the task, refuses an answer that does not fit the form, and resumes with one that does', async () => {
    const { url } = await serve();
    const ask = async () => {
      const { result } = await rawRequest(url, 'tools/call', { name: 'pick_colour', arguments: {} }, { ...as('t-alice'), capabilities: { elicitation: {} } });
      const taskId = result?.taskId ?? '';
      let parked!: RawAnswer;
      await eventually(async () => (parked = await rawRequest(url, 'tasks/get', { taskId }, as('t-alice'))).result?.status === 'input_required');
      const requests = parked.result?.inputRequests as Record<string, { method: string; params: { message: string } }>;
      const [key] = Object.keys(requests);
      expect(requests[key]).toMatchObject({ method: 'elicitation/create', params: { mode: 'form', message: 'Which colour?' } });
      return { taskId, key };
    };
    const bad = await ask();
    await rawRequest(url, 'tasks/update', { taskId: bad.taskId, inputResponses: { [bad.key]: { action: 'accept', content: { colour: 'green; DROP' } } } }, as('t-alice'));
    const refused = await settle(url, bad.taskId);
    expect(refused.result).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(JSON.stringify(refused.result)).toMatch(/does not match the requested form/);
    const good = await ask();
    await rawRequest(url, 'tasks/update', { taskId: good.taskId, inputResponses: { [good.key]: { action: 'accept', content: { colour: 'red' } } } }, as('t-alice'));
    expect((await settle(url, good.taskId)).result).toMatchObject({ status: 'completed', result: { content: [{ text: 'picked red' }] } });
  });

  it("keeps the gate: a tool that is off for the caller is refused as usual, never made a task, and its task support is not revealed", async () => {
    const { url } = await serve();
    const withExtension = await rawRequest(url, 'tools/call', { name: 'wipe', arguments: {} }, as('t-alice'));
    expect(withExtension.result).toMatchObject({ resultType: 'complete', isError: true });
    expect(withExtension.result).not.toHaveProperty('taskId');
    const without = await rawRequest(url, 'tools/call', { name: 'wipe', arguments: {} }, { ...as('t-alice'), tasks: false });
    expect(without.result).toMatchObject({ resultType: 'complete', isError: true });
    const optional = await rawRequest(url, 'tools/call', { name: 'report', arguments: { title: 'sync' } }, { ...as('t-alice'), tasks: false });
    expect(optional.result).toMatchObject({ resultType: 'complete', content: [{ text: expect.stringContaining('report sync') }] });
  });
});
