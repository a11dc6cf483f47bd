import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit, type AgentTool } from '../../../src';
import { recordEvents } from '../../support/events';
import { findLeaks } from '../../support/leaks';

const SECRET = 'sk-live-9d8c7b6a5f4e3d2c1b0a';
const QUOTED = 'tok"en\\9d8c7b6a5f4e3d2c';

function tool(name: string, execute: (key: string, pad: number) => unknown, maxResultChars?: number): AgentTool {
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: { key: { type: 'string' }, pad: { type: 'integer' } }, required: ['key', 'pad'] },
    ...(maxResultChars !== undefined ? { behaviour: { maxResultChars } } : {}),
    execute: (args) => execute(String(args.key), Number(args.pad)),
  };
}

describe('no cut leaves 8+ characters of a secret behind', () => {
  it('describeThrown cuts the JSON of a thrown object at 500 characters only after redacting it', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(
      tool('throws', (key, pad) => {
        throw { pad: 'x'.repeat(pad), key };
      }),
      { presets: { throws: { key: SECRET } } },
    );
    const recorder = recordEvents(toolkit);
    // `{"pad":"xx…x","key":"` puts the secret across the 500th character for these pads
    for (const pad of [470, 475, 480, 485, 490, 495]) {
      const result = await toolkit.callTool({ id: `p${pad}`, name: 'throws', arguments: { pad } });
      expect(result.error?.code).toBe('EXECUTION_FAILED');
      expect(result.forLLM.length).toBeLessThan(560);
      expect(findLeaks(result, [SECRET])).toEqual([]);
    }
    recorder.stop();
    expect(findLeaks(recorder.events, [SECRET])).toEqual([]);
  });

  it('maxResultChars cuts JSON text only after its escaped secrets are redacted, head and tail', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(tool('returns', (key, pad) => ({ head: 'h'.repeat(pad), key, tail: 't'.repeat(400) }), 300), { presets: { returns: { key: QUOTED } } });
    toolkit.registerTool(tool('tail', (key, pad) => ({ head: 'h'.repeat(400), key, tail: 't'.repeat(pad) }), 300), { presets: { tail: { key: QUOTED } } });
    // the cut keeps 186 head and 79 tail characters: these pads put the escaped key across either cut
    const cases = [...[140, 145, 150, 155, 160, 165, 170].map((pad) => ['returns', pad] as const), ...[40, 45, 50, 55, 60, 65, 70].map((pad) => ['tail', pad] as const)];
    for (const [name, pad] of cases) {
      const result = await toolkit.callTool({ id: `${name}-${pad}`, name, arguments: { pad } });
      expect(result.forLLM.length).toBeLessThanOrEqual(300);
      expect(findLeaks(result.forLLM, [QUOTED])).toEqual([]);
    }
  });
});
