/**
 * How `npm run conformance` judges a requirement set (scripts/conformance-results.js): the run is
 * green only while every scenario's status matches conformance/expected-failures/<set>.json, and
 * a change either way — or a suite that produced no result — turns it red.
 */
interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  readonly errorMessage?: string;
}
interface Row {
  readonly scenario: string;
  readonly state: string;
  readonly verdict: string;
  readonly passed: number;
  readonly failed: number;
}
interface Requirements {
  readonly required: readonly string[];
  unscored(...reasons: string[]): string[];
}
interface ConformanceResults {
  parseRequirements(output: string): Requirements | undefined;
  judgeSet(set: {
    name: string;
    scenarios: readonly string[];
    results: ReadonlyMap<string, readonly Check[] | null>;
    expected: ReadonlyMap<string, string>;
  }): { rows: Row[]; problems: string[]; figure: string };
}

// a plain CommonJS script, loaded as the npm script loads it
const { parseRequirements, judgeSet } = require('../../scripts/conformance-results') as ConformanceResults;

/** The shape `conformance list --server --requirements 2026-07-28` prints (0.2.0-alpha.12), shortened. */
const LIST = `Required for 2026-07-28 (69 scenarios, frozen; run at the 2026-07-28 wire):

Server scenarios (test against a server):
  - server-stateless
  - tools-list

Client scenarios (test against a client):
  - tools_call

Run and reported, but never scored:
  extension (3):
    - auth/dpop [client]
    - tasks-lifecycle [server]
    - tasks-wire-fields [server]
  added-after-release (1):
    - json-schema-2020-12-preservation [client]
  pending (2):
    - json-schema-2020-12 [server]
    - http-header-validation [server]
`;

const ok: Check = { id: 'a', status: 'SUCCESS' };
const bad: Check = { id: 'b', status: 'FAILURE', errorMessage: 'Bad Request:\n Server not initialized' };

function judge(results: Record<string, readonly Check[] | null>, expected: Record<string, string>, scenarios = ['one', 'two']) {
  return judgeSet({ name: '2026-07-28', scenarios, results: new Map(Object.entries(results)), expected: new Map(Object.entries(expected)) });
}

describe('parseRequirements', () => {
  test('server scenarios: the required list, and the unscored ones by reason (client entries left out)', () => {
    const list = parseRequirements(LIST);
    expect(list?.required).toEqual(['server-stateless', 'tools-list']);
    expect(list?.unscored('extension')).toEqual(['tasks-lifecycle', 'tasks-wire-fields']);
    expect(list?.unscored('added-after-release', 'pending')).toEqual(['json-schema-2020-12', 'http-header-validation']);
  });

  test('output without a server list (an error, another format) is no list at all', () => {
    expect(parseRequirements('Unknown requirement set: 2099-01-01\n')).toBeUndefined();
  });
});

describe('judgeSet', () => {
  test('passing and expected failures as listed: no problem, and the figures line', () => {
    const { problems, figure, rows } = judge({ one: [ok, ok], two: [ok, bad] }, { two: '2026-07-28 not served yet: stateless requests' });
    expect(problems).toEqual([]);
    expect(rows.map((r) => r.verdict)).toEqual(['pass', 'expected failure']);
    expect(figure).toBe('2026-07-28  1/2 scenarios pass; checks: 3 passed, 1 failed, 0 warnings');
  });

  test('a failure nobody listed fails the run, naming the failed check on one line', () => {
    const { problems } = judge({ one: [ok], two: [bad] }, {});
    expect(problems).toEqual(['[2026-07-28] two fails: b: Bad Request: Server not initialized']);
  });

  test('a listed scenario that passes now fails the run too (the list must shrink)', () => {
    const { problems } = judge({ one: [ok], two: [ok] }, { two: 'reason' });
    expect(problems).toEqual(['[2026-07-28] two passes now: remove it from conformance/expected-failures/2026-07-28.json']);
  });

  test('a scenario without any result fails the run even when listed: a suite that did not run is not green', () => {
    const { problems, rows } = judge({}, { one: 'reason', two: 'reason' });
    expect(rows.map((r) => r.verdict)).toEqual(['NO RESULT', 'NO RESULT']);
    expect(problems).toHaveLength(2);
  });

  test('a scenario the suite skipped, or one that threw, does not pass; listed, it is an expected failure', () => {
    const skipped: Check = { id: 's', status: 'SKIPPED' };
    const listed = judge({ one: [skipped], two: null }, { one: 'reason', two: 'reason' });
    expect(listed.problems).toEqual([]);
    expect(listed.rows.map((r) => [r.state, r.failed])).toEqual([['skipped', 0], ['threw', 1]]);
    expect(listed.figure).toBe('2026-07-28  0/2 scenarios pass (1 skipped by the suite); checks: 0 passed, 1 failed, 0 warnings');
    const unlisted = judge({ one: [skipped], two: null }, {});
    expect(unlisted.problems).toHaveLength(2);
  });

  test('informational checks alone are no pass; a pass with warnings is a pass', () => {
    const { rows } = judge({ one: [{ id: 'i', status: 'INFO' }], two: [ok, { id: 'w', status: 'WARNING' }] }, { one: 'reason' });
    expect(rows.map((r) => r.verdict)).toEqual(['expected failure', 'pass']);
  });

  test('a scenario with many failed checks is reported with the first five and a count, each message bounded', () => {
    const many = Array.from({ length: 30 }, (_, i): Check => ({ id: `c${i}`, status: 'FAILURE', errorMessage: 'x'.repeat(5_000) }));
    const { problems } = judge({ one: many }, {}, ['one']);
    expect(problems[0]).toContain('and 25 more failed checks');
    expect(problems[0].length).toBeLessThan(1_300);
  });
});
