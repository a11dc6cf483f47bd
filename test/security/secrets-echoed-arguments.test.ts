import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit, type CallStartedEvent } from '../../src';
import { findLeaks, recordAll } from './leak-scan';

const SECRET = 'sk-prod-1f2e3d4c5b6a';

describe('a model that sends a preset value in another argument does not get it echoed', () => {
  it('in call_started arguments, argument errors or results', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(
      {
        name: 'search',
        description: 'Search',
        parameters: {
          type: 'object',
          properties: { apiKey: { type: 'string' }, query: { type: 'string' }, scope: { type: 'string', enum: ['all', 'mine'] } },
          required: ['apiKey', 'query'],
        },
        execute: (args) => `results for ${String(args.query)}`,
      },
      { presets: { search: { apiKey: SECRET } } },
    );
    const recorder = recordAll(toolkit);
    const ok = await toolkit.callTool({ id: 'a', name: 'search', arguments: { query: `key ${SECRET}`, scope: 'all' } });
    const invalid = await toolkit.callTool({ id: 'b', name: 'search', arguments: { query: 'q', scope: SECRET } });
    recorder.stop();
    expect(ok.forLLM).toBe('results for key [REDACTED]');
    expect(invalid.error?.code).toBe('INVALID_ARGUMENTS');
    const started = recorder.events.find((e): e is CallStartedEvent => e.type === 'call_started')!;
    expect(started.arguments).toEqual({ query: 'key [REDACTED]', scope: 'all' });
    expect(findLeaks({ ok, invalid, events: recorder.events }, [SECRET])).toEqual([]);
  });
});
