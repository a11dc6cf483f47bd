import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit, type AgentTool } from '../../../src';
import { recordEvents } from '../../support/events';
import { findLeaks } from '../../support/leaks';

const SECRET = 'svc-token-7d2e91c4ab';

/**
 * A tool that answers with a hand-made ToolResult carrying fields beyond the documented ones (a
 * `debug` record, an error `hint`): those fields travel with the result into the answer and the
 * events, so they must be redacted like `forLLM`, `error.message` and `data`.
 */
function tool(isError: boolean): AgentTool {
  return {
    name: isError ? 'fails' : 'answers',
    description: 'answers with a hand-made ToolResult',
    parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    execute: (args) => ({
      forLLM: 'done',
      isError,
      silent: false,
      async: false,
      ...(isError ? { error: { code: 'UPSTREAM', message: 'upstream refused', hint: `retry with ${String(args.key)}` } } : {}),
      debug: { request: { headers: { authorization: `Bearer ${String(args.key)}` } } },
    }),
  };
}

describe('secrets: fields of a tool-made ToolResult beyond the documented ones', () => {
  it.each([false, true])('never carry a preset value into the answer or the events (isError %s)', async (isError) => {
    const toolkit = new Toolkit({ container: new Container() });
    const t = tool(isError);
    toolkit.registration().tool(t).presetParameters({ [t.name]: { key: SECRET } }).apply();
    const recorded = recordEvents(toolkit);
    const result = await toolkit.callTool({ id: 'c1', name: t.name, arguments: '{}' });
    recorded.stop();
    expect(result.isError).toBe(isError);
    expect(result.forLLM).toBe('done');
    expect(findLeaks(result, [SECRET])).toEqual([]);
    expect(findLeaks(recorded.events, [SECRET])).toEqual([]);
    // the extra fields stay, redacted
    expect(JSON.stringify((result as unknown as { debug: unknown }).debug)).toContain('[REDACTED]');
    if (isError) expect(result.error).toMatchObject({ code: 'UPSTREAM', message: 'upstream refused', hint: 'retry with [REDACTED]' });
  });
});
