import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit, type AgentTool, type PresetValue, type ToolResult } from '../../../src';
import { recordEvents } from '../../support/events';
import { findLeaks } from '../../support/leaks';

const PIN = 48151623;
const ACCOUNT = { user: 'svc-reporting', password: 'hunter2-pw-x9', nested: { token: 'tok_5e6f7a8b', port: 54321 } };
const ACCOUNT_LEAVES = ['svc-reporting', 'hunter2-pw-x9', 'tok_5e6f7a8b', 54321];

function echo(name: string): AgentTool {
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: { secret: {}, mode: { type: 'string' } }, required: ['secret'] },
    execute: (args, ctx) => {
      ctx.emit({ message: `using ${JSON.stringify(args.secret)}`, data: args.secret });
      if (args.mode === 'throw') throw new Error(`failed with ${JSON.stringify(args.secret)}`);
      return args.mode === 'text' ? `secret: ${String(args.secret)} / ${JSON.stringify(args.secret)}` : { secret: args.secret };
    },
  };
}

async function run(preset: PresetValue): Promise<{ results: ToolResult[]; events: unknown[] }> {
  const toolkit = new Toolkit({ container: new Container() });
  toolkit.registerTool(echo('fixed'), { presets: { fixed: { secret: preset } } });
  toolkit.registerTool(echo('resolved'), { presets: { resolved: { secret: async () => preset } } });
  const recorder = recordEvents(toolkit);
  const results: ToolResult[] = [];
  for (const name of ['fixed', 'resolved']) {
    for (const mode of ['text', 'data', 'throw']) results.push(await toolkit.callTool({ id: `${name}-${mode}`, name, arguments: { mode } }));
  }
  recorder.stop();
  return { results, events: recorder.events };
}

describe('preset values of every shape are redacted', () => {
  it('a number, by its decimal text, in text, data, errors, progress and events', async () => {
    const { results, events } = await run(PIN);
    expect(results[0].forLLM).toBe('secret: [REDACTED] / [REDACTED]');
    expect(results[1].data).toEqual({ secret: '[REDACTED]' });
    expect(findLeaks({ results, events }, [PIN])).toEqual([]);
  });

  it('an object, by each of its leaves', async () => {
    const { results, events } = await run(ACCOUNT);
    expect(results[1].data).toEqual({ secret: { user: '[REDACTED]', password: '[REDACTED]', nested: { token: '[REDACTED]', port: '[REDACTED]' } } });
    expect(findLeaks({ results, events }, ACCOUNT_LEAVES)).toEqual([]);
  });

  it('numbers of fewer than 4 digits and booleans are not treated as secrets (they would shred ordinary text)', async () => {
    const { results } = await run({ retries: 3, verbose: true });
    expect(results[0].forLLM).toBe('secret: [object Object] / {"retries":3,"verbose":true}');
  });
});
