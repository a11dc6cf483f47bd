import { InMemoryServerEventBus, type ServerEvent } from '@modelcontextprotocol/server';
import { audienceBus, audienceEvent } from '../../../src/mcp/transports/mcp-http-audience';

/**
 * The bus in front of the SDK's listen router: an event marked for an audience reaches only the
 * listeners registered for it, without the mark; unmarked events reach everyone unchanged; a
 * marked event published by someone else (a forged audience, a non-string one) reaches no one
 * outside it.
 */

function listeners(audiences: readonly (readonly string[])[]): { publish: (event: ServerEvent) => void; heard: ServerEvent[][] } {
  const shared = new InMemoryServerEventBus();
  const heard: ServerEvent[][] = audiences.map(() => []);
  audiences.forEach((audience, i) => {
    const bus = audienceBus(shared, () => new Set(audience));
    bus.subscribe((event) => heard[i].push(event));
  });
  return { publish: (event) => shared.publish(event), heard };
}

test('a marked event reaches its audience alone, unmarked; an unmarked one reaches every listener as it was', () => {
  const { publish, heard } = listeners([['p:alice'], ['p:bob'], []]);
  publish(audienceEvent('tools', 'p:alice'));
  publish({ kind: 'prompts_list_changed' });
  expect(heard[0]).toEqual([{ kind: 'tools_list_changed' }, { kind: 'prompts_list_changed' }]);
  expect(heard[1]).toEqual([{ kind: 'prompts_list_changed' }]);
  expect(heard[2]).toEqual([{ kind: 'prompts_list_changed' }]);
});

test("other _meta keys and params of a marked event survive; a non-string or unknown audience reaches no one", () => {
  const { publish, heard } = listeners([['c:1'], []]);
  publish({ kind: 'resources_list_changed', params: { note: 1, _meta: { 'io.toolwright/audience': 'c:1', trace: 'x' } } } as ServerEvent);
  publish({ kind: 'tools_list_changed', params: { _meta: { 'io.toolwright/audience': ['c:1'] } } } as ServerEvent);
  publish(audienceEvent('resources', 'c:2'));
  expect(heard[0]).toEqual([{ kind: 'resources_list_changed', params: { note: 1, _meta: { trace: 'x' } } }]);
  expect(heard[1]).toEqual([]);
});
