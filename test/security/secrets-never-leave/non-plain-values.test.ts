import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit, type AgentTool, type CallFailedEvent, type ToolProgress, type ToolResult } from '../../../src';
import { recordEvents } from '../../support/events';
import { findLeaks } from '../../support/leaks';

const SECRET = 'db-pass-4c1e9a7b2d';

class Credentials {
  readonly byHost = new Map([['db', SECRET]]);
  constructor(readonly host: string) {}
}

class Sealed {
  toJSON() {
    return { sealed: SECRET };
  }
}

const shapes: Record<string, (key: string) => unknown> = {
  map: (key) => ({ lookup: new Map([['db', key]]), byKey: new Map([[key, 1]]) }),
  set: (key) => ({ keys: new Set([key]) }),
  instance: () => ({ credentials: new Credentials('db.internal') }),
  to_json: () => ({ sealed: new Sealed() }),
  bytes: (key) => ({ raw: new TextEncoder().encode(`key=${key}`) }),
};

function tool(name: string, execute: (key: string) => unknown): AgentTool {
  return { name, description: name, parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] }, execute: (args, ctx) => execute(String(args.key)) ?? ctx };
}

function setup(): Toolkit {
  const toolkit = new Toolkit({ container: new Container() });
  const registration = toolkit.registration();
  const presets: Record<string, Record<string, string>> = {};
  for (const [name, make] of Object.entries(shapes)) {
    registration.tool(tool(name, make));
    presets[name] = { key: SECRET };
  }
  registration.tool({
    name: 'progress',
    description: 'progress',
    parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    execute: (args, ctx) => {
      ctx.emit({ message: 'working', data: { lookup: new Map([['key', args.key]]), credentials: new Credentials('h') } });
      return 'done';
    },
  });
  registration.tool(
    tool('throws', (key) => {
      const inner = new TypeError(`connect failed: ${key}`);
      const error = new Error('query failed', { cause: inner });
      error.name = `QueryError[${key}]`;
      throw Object.assign(error, { details: new Map([['password', key]]) });
    }),
  );
  presets.progress = { key: SECRET };
  presets.throws = { key: SECRET };
  registration.presetParameters(presets).apply();
  return toolkit;
}

describe('Maps, Sets, class instances, toJSON, bytes and Errors never carry a secret out', () => {
  it('in data, progress, call_failed causes and events', async () => {
    const toolkit = setup();
    const recorder = recordEvents(toolkit);
    const progress: ToolProgress[] = [];
    const results: ToolResult[] = [];
    for (const name of [...Object.keys(shapes), 'progress', 'throws']) {
      results.push(await toolkit.callTool({ id: name, name, arguments: {} }, { onProgress: (p) => progress.push(p) }));
    }
    recorder.stop();

    expect(results[0].data).toEqual({ lookup: new Map([['db', '[REDACTED]']]), byKey: new Map([['[REDACTED]', 1]]) });
    expect(results[1].data).toEqual({ keys: new Set(['[REDACTED]']) });
    expect(results[2].data).toEqual({ credentials: '[REDACTED]' });
    expect(results[3].data).toEqual({ sealed: '[REDACTED]' });
    expect(results[4].data).toEqual({ raw: '[REDACTED]' });
    const failed = recorder.events.find((e): e is CallFailedEvent => e.type === 'call_failed')!;
    const cause = failed.cause as Error & { details: unknown };
    expect(cause).toBeInstanceOf(Error);
    expect(cause.name).toBe('QueryError[[REDACTED]]');
    expect((cause.cause as Error).message).toBe('connect failed: [REDACTED]');
    expect(cause.details).toEqual(new Map([['password', '[REDACTED]']]));
    expect(findLeaks({ results, progress, events: recorder.events }, [SECRET])).toEqual([]);
  });
});
