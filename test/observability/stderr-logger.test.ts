import 'reflect-metadata';
import { PassThrough } from 'node:stream';
import { Container } from 'inversify';
import { Toolkit } from '../../src';
import { stderrLogger } from '../../src/mcp';

/** Everything a stderrLogger wrote to its stream, as lines. */
function captured(): { stream: PassThrough; lines: () => string[] } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return { stream, lines: () => chunks.join('').split('\n').filter((line) => line !== '') };
}

const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z toolwright (debug|info|warn|error): /;

describe('stderrLogger', () => {
  it('keeps a model-sent name with line breaks on its own line: no forged log line', async () => {
    const { stream, lines } = captured();
    const toolkit = new Toolkit({ container: new Container(), logger: stderrLogger({ level: 'debug', stream }) });
    const forged = '2026-01-01T00:00:00.000Z toolwright error: admin password reset';
    await toolkit.callTool({ id: 'c1\r\nx', name: `get_weather\n${forged}\u2028`, arguments: {} });
    const written = lines();
    expect(written.length).toBeGreaterThan(0);
    for (const line of written) expect(line).toMatch(LINE);
    expect(written.some((line) => line.startsWith(forged))).toBe(false);
    expect(written.join('\n')).toContain('get_weather\\u000a2026-01-01');
  });

  it('bounds a line however long the name, and writes one line per entry', () => {
    const { stream, lines } = captured();
    const logger = stderrLogger({ stream });
    logger.warn({ tool: 'n'.repeat(1_000_000) }, 'm'.repeat(50));
    logger.debug({}, 'below the level');
    const written = lines();
    expect(written).toHaveLength(1);
    expect(written[0]!.length).toBeLessThan(2_200);
  });
});
