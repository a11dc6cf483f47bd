import { runTypeScript } from '../support/child-process';
import { requireRedis } from '../support/redis';

jest.setTimeout(90_000);

beforeAll(requireRedis);

it('npm run sample:queue: two worker processes run the calls, a worker killed mid-call is replaced and the call answers', async () => {
  const run = await runTypeScript('examples/demo/queue/demo.ts', { timeoutMs: 80_000 });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const out = run.stdout;
  expect(out).toContain(`the model sees: {"type":"object","properties":{"month":{"type":"string","pattern":"^\\\\d{4}-(0[1-9]|1[0-2])$","description":"YYYY-MM"}},"required":["month"],"additionalProperties":false}`);
  expect(out).toContain('invalid month, answered before anything is queued: INVALID_ARGUMENTS: ');
  for (const [id, month] of [['c1', '2026-07'], ['c2', '2026-08'], ['c3', '2026-09'], ['c4', '2026-10'], ['c9', '2026-11']]) {
    expect(out).toMatch(new RegExp(`${id}: Sales ${month} for Ada: \\d+ orders \\(worker pid \\d+\\)`));
  }
  expect(out).not.toContain('wh-demo-token');
});
