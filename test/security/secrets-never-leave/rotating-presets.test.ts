import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit } from '../../../src';

/**
 * A preset resolved to a fresh value on every call (a rotating token) is redacted from its call's
 * output also when more calls than the toolkit remembers (64) rotate in between.
 */
describe('security: rotating preset values', () => {
  it('150 concurrent calls, each leaking its own fresh token after all have started: none leaks', async () => {
    let issued = 0;
    let release!: () => void;
    const allStarted = new Promise<void>((resolve) => (release = resolve));
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(
      {
        name: 'fetch_report',
        description: 'Fetches a report with a short-lived token',
        parameters: { type: 'object', properties: { token: { type: 'string' } } },
        execute: async (args) => {
          await allStarted;
          return { text: `fetched with ${String(args.token)}`, token: args.token };
        },
      },
      {
        presets: {
          fetch_report: {
            token: () => {
              issued++;
              if (issued === 150) setImmediate(release);
              return `tok-${issued.toString().padStart(4, '0')}-9f8e7d6c`;
            },
          },
        },
      },
    );
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => toolkit.callTool({ id: `r${i}`, name: 'fetch_report', arguments: {} })));
    expect(issued).toBe(150);
    const text = JSON.stringify(results);
    expect(text).not.toMatch(/tok-\d{4}-9f8e7d6c/);
    expect(results.every((r) => r.forLLM.includes('[REDACTED]'))).toBe(true);
  });
});
