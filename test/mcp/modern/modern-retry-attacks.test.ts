import { ClientRequests, Tool, ToolParam, ToolService } from '../../../src';
import { McpPrincipal, bearerAuth, memoryMcpStateStore, serveMcpHttp, type McpStateStore } from '../../../src/mcp';
import { secretForms } from '../../../src/executor/presets/secret-forms';
import { Closer } from '../../support/mcp';
import { peekTool, rawRequest } from '../../support/mcp-modern-raw';
import { freshToolkit } from '../../support/toolkit';

/**
 * What a hostile client tries with Multi Round-Trip Requests beyond the state's own checks: a tool
 * with a preset secret asks with the secret in its question (no form of it reaches the
 * `input_required` answer, its `requestState` — signed base64url JSON the client can read —, the
 * result or the state store); a state kept for a retry after the caller's group went off.
 */

const SECRET = 'sk live/Ünï+%&=?key-0123456789';
const closer = new Closer();
afterEach(() => closer.closeAll());

@ToolService()
class Keys {
  @Tool({ description: 'Asks before using the key', annotations: { readOnly: true } })
  async useKey(@ToolParam({ name: 'apiKey' }) apiKey: string, client: ClientRequests): Promise<string> {
    const answer = await client.elicit<{ ok: boolean }>({
      message: `Use the key ${apiKey} (${encodeURIComponent(apiKey)})?`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', description: `key ${apiKey}` } }, required: ['ok'] },
    });
    return `used ${apiKey}: ${String(answer.content?.ok)}`;
  }
}

/** Every text a client or the store could read, the requestState decoded. */
function readable(value: unknown): string {
  const text = JSON.stringify(value);
  const states = [...text.matchAll(/tw1\.([A-Za-z0-9_-]+)\./g)].map((m) => Buffer.from(m[1], 'base64url').toString('utf8'));
  return [text, ...states].join('\n');
}

test('a preset secret in a question reaches neither input_required, its requestState, the result nor the state store', async () => {
  const toolkit = freshToolkit();
  toolkit.registration().tool(new Keys()).presetParameters({ use_key: { apiKey: SECRET } }).apply();
  const inner = memoryMcpStateStore();
  const written: string[] = [];
  const stateStore: McpStateStore = {
    setIfAbsent: (key, value, ttl) => (written.push(key, value), inner.setIfAbsent(key, value, ttl)),
    set: (key, value, ttl) => (written.push(key, value), inner.set(key, value, ttl)),
    get: (key) => inner.get(key),
    delete: (key) => inner.delete(key),
  };
  const http = closer.add(
    await serveMcpHttp(toolkit, { name: 'keys', version: '1', stateStore, stateSecret: 'a-shared-key-of-at-least-32-bytes!', authenticate: bearerAuth((t) => (t === 't-alice' ? new McpPrincipal('alice') : undefined)) }),
  );
  const options = { tasks: false, capabilities: { elicitation: {} }, headers: { authorization: 'Bearer t-alice' } };
  const first = await rawRequest(http.url, 'tools/call', { name: 'use_key', arguments: {} }, options);
  expect(first.result).toMatchObject({ resultType: 'input_required' });
  const [key] = Object.keys(first.result!.inputRequests as object);
  const second = await rawRequest(http.url, 'tools/call', { name: 'use_key', arguments: {}, requestState: first.result!.requestState, inputResponses: { [key]: { action: 'accept', content: { ok: true } } } }, options);
  expect(second.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: expect.stringMatching(/^used .+: true$/) }] });
  const seen = [readable(first), readable(second), readable(written)].join('\n');
  expect(seen).toContain('Use the key');
  for (const form of [...secretForms(SECRET), SECRET.slice(0, 8), Buffer.from(SECRET).toString('base64url').slice(0, 12)]) expect(seen).not.toContain(form);
});

test("a round started while the tool was on is refused on its retry once the principal's group went off (TOOL_DISABLED): the state is no pass", async () => {
  const toolkit = freshToolkit();
  const { tool, peeks } = peekTool();
  toolkit.createToolGroup('vault', 'Vault', false);
  toolkit.registerTool(tool, { group: 'vault' });
  const http = closer.add(
    await serveMcpHttp(toolkit, { name: 'vault', version: '1', stateSecret: 'a-shared-key-of-at-least-32-bytes!', authenticate: bearerAuth((t) => (t === 't-alice' ? new McpPrincipal('alice') : undefined)) }),
  );
  const options = { tasks: false, capabilities: { elicitation: {} }, headers: { authorization: 'Bearer t-alice' } };
  const aliceView = toolkit.session('principal:alice');
  aliceView.updateToolGroups(['vault'], true);
  const first = await rawRequest(http.url, 'tools/call', { name: 'peek', arguments: {} }, options);
  expect(first.result).toMatchObject({ resultType: 'input_required' });
  const [key] = Object.keys(first.result!.inputRequests as object);
  aliceView.updateToolGroups(['vault'], false);
  const retry = await rawRequest(http.url, 'tools/call', { name: 'peek', arguments: {}, requestState: first.result!.requestState, inputResponses: { [key]: { action: 'accept', content: {} } } }, options);
  expect(retry.result).toMatchObject({ isError: true });
  expect(JSON.stringify(retry.result)).toMatch(/disabled|TOOL_DISABLED/);
  expect(peeks()).toBe(0);
});
