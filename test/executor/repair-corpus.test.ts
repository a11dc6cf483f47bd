import { isDeepStrictEqual } from 'node:util';
import type { AgentTool, ObjectJsonSchema, ToolEvent } from '../../src';
import corpus from './repair-corpus/corpus.json';
import { toolkitWith } from './helpers';

/**
 * The repair corpus (`repair-corpus/corpus.json`, written by `generate.js`): malformed calls of
 * the failure modes models are documented to send, each with the outcome a careful person would
 * accept. Every case runs through a real toolkit with `repair: 'safe'`. A wrong repair — the tool
 * ran with arguments other than the expected ones, or ran where the call should be refused — fails
 * the suite; a repair the corpus expects but the toolkit refuses is a miss, counted in the share.
 */

interface CorpusCase {
  readonly id: string;
  readonly mode: string;
  readonly tool: string;
  readonly input: string | Record<string, unknown>;
  readonly expected: 'refused' | { readonly repaired: Record<string, unknown> };
  readonly source: readonly string[];
  readonly note?: string;
}

const CASES = corpus.cases as readonly CorpusCase[];
const TOOLS = corpus.tools as unknown as Record<string, ObjectJsonSchema>;

type Outcome = 'repaired' | 'refused' | 'missed' | 'wrong';

async function runCase(c: CorpusCase): Promise<{ outcome: Outcome; detail: string }> {
  const received: Record<string, unknown>[] = [];
  const tools: AgentTool[] = Object.entries(TOOLS).map(([name, parameters]) => ({
    name,
    description: `The ${name} tool`,
    parameters,
    execute: (args) => {
      received.push(args);
      return 'ok';
    },
  }));
  const toolkit = toolkitWith(tools, { repair: 'safe' });
  const events: ToolEvent[] = [];
  toolkit.events$.subscribe((event) => events.push(event));
  const result = await toolkit.callTool({ id: c.id, name: c.tool, arguments: c.input });
  const ran = received.length === 1;
  const repairedEvent = events.find((event) => event.type === 'call_repaired');
  if (c.expected === 'refused') {
    if (ran) return { outcome: 'wrong', detail: `ran with ${JSON.stringify(received[0])}` };
    if (!result.isError) return { outcome: 'wrong', detail: 'answered without an error' };
    return { outcome: 'refused', detail: result.error!.code };
  }
  if (!ran) return { outcome: 'missed', detail: result.error?.code ?? 'not run' };
  if (!isDeepStrictEqual(received[0], c.expected.repaired)) return { outcome: 'wrong', detail: `ran with ${JSON.stringify(received[0])}` };
  if (repairedEvent === undefined) return { outcome: 'wrong', detail: 'no call_repaired event' };
  return { outcome: 'repaired', detail: '' };
}

describe('the repair corpus', () => {
  it('holds at least 300 cases across the failure modes, each with a source', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(300);
    expect(new Set(CASES.map((c) => c.mode)).size).toBeGreaterThanOrEqual(20);
    for (const c of CASES) expect(c.source.length).toBeGreaterThan(0);
    expect(new Set(CASES.map((c) => c.id)).size).toBe(CASES.length);
  });

  it('holds only calls that fail without repair', async () => {
    const ran: string[] = [];
    for (const c of CASES) {
      const toolkit = toolkitWith(
        Object.entries(TOOLS).map(([name, parameters]) => ({ name, description: name, parameters, execute: () => ran.push(c.id) })),
      );
      await toolkit.callTool({ id: c.id, name: c.tool, arguments: c.input });
    }
    expect(ran).toEqual([]);
  });

  it('makes no wrong repair, and repairs most of what it may', async () => {
    const counts: Record<Outcome, number> = { repaired: 0, refused: 0, missed: 0, wrong: 0 };
    const wrong: string[] = [];
    const missed: string[] = [];
    for (const c of CASES) {
      const { outcome, detail } = await runCase(c);
      counts[outcome]++;
      if (outcome === 'wrong') wrong.push(`${c.id} ${JSON.stringify(c.input)}: ${detail}`);
      if (outcome === 'missed') missed.push(`${c.id} ${JSON.stringify(c.input)}: ${detail}`);
    }
    const expectedRepairs = counts.repaired + counts.missed;
    const share = (100 * counts.repaired) / expectedRepairs;
    // the figures quoted on the Performance page (docs/performance.md)
    process.stdout.write(
      `repair corpus: ${CASES.length} cases; ${counts.repaired} of ${expectedRepairs} repairable repaired (${share.toFixed(1)} %), ` +
        `${counts.refused} of ${CASES.length - expectedRepairs} refused as expected, ${counts.wrong} wrong\n` +
        (missed.length > 0 ? `missed:\n  ${missed.join('\n  ')}\n` : ''),
    );
    expect(wrong).toEqual([]);
    expect(counts.refused).toBe(CASES.length - expectedRepairs);
    expect(share).toBeGreaterThanOrEqual(90);
  });
});
