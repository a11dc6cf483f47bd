import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit, type CallStartedEvent } from '../../../src';
import { recordEvents } from '../../support/events';
import { findLeaks } from '../../support/leaks';

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
    const recorder = recordEvents(toolkit);
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

describe('security: argument errors quote redacted values', () => {
  it('a model-sent copy of a preset value inside an invalid argument leaves no prefix at the quote cut', async () => {
    const secret = 'p4ss-word-9f8e7d6c5b4a3210-zyxw';
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(
      {
        name: 'login',
        description: 'Log in',
        parameters: { type: 'object', properties: { user: { type: 'string', maxLength: 8 }, password: { type: 'string' } }, required: ['user'] },
        execute: () => 'in',
      },
      { presets: { login: { password: secret } } },
    );
    // the secret starts 70 characters in, across the 80-character quote of the value
    const user = `${'u'.repeat(70)}${secret}${'v'.repeat(40)}`;
    const result = await toolkit.callTool({ id: 'e1', name: 'login', arguments: { user } });
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.forLLM).not.toContain(secret.slice(0, 8));
  });
});
