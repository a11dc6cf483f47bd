import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The MCP conformance page's figures and exceptions (docs/integrations/mcp/conformance.md) agree
 * with conformance/expected-failures/ (which `npm run conformance` holds to the suite's results, one
 * file per requirement set), so the documentation never promises more or less than CI checks.
 */
const ROOT = path.resolve(__dirname, '../..');
const DIR = path.join(ROOT, 'conformance/expected-failures');
const SETS = ['2025-11-25', '2026-07-28', 'tasks'];

const PAGE = 'docs/integrations/mcp/conformance.md';

function conformancePage(): string {
  const page = fs.readFileSync(path.join(ROOT, PAGE), 'utf8');
  expect(page.startsWith('# MCP conformance\n')).toBe(true);
  return page;
}

function expectedFailures(set: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(DIR, `${set}.json`), 'utf8')) as Record<string, unknown>;
}

test('one file of expected failures per requirement set, each entry with a reason', () => {
  expect(fs.readdirSync(DIR).sort()).toEqual(SETS.map((set) => `${set}.json`).sort());
  for (const set of SETS) {
    for (const [scenario, reason] of Object.entries(expectedFailures(set))) {
      expect({ scenario, reason: typeof reason === 'string' && reason.length > 0 }).toEqual({ scenario, reason: true });
    }
  }
});

test("the page's figures per set add up with that set's expected failures", () => {
  const rows = new Map(
    [...conformancePage().matchAll(/^\| `([a-z0-9-]+)` \| (\d+) of (\d+) \| .*\[(\d+)\]\(https:\/\/github\.com\/toolwright\/toolwright\/blob\/main\/conformance\/expected-failures\/([a-z0-9-]+)\.json\) \|$/gm)].map((m) => [
      m[1],
      { passing: Number(m[2]), total: Number(m[3]), listed: Number(m[4]), file: m[5] },
    ]),
  );
  expect([...rows.keys()].sort()).toEqual([...SETS].sort());
  for (const set of SETS) {
    const failures = Object.keys(expectedFailures(set)).length;
    // the run is green only when the failing scenarios are exactly the listed ones
    expect({ set, ...rows.get(set) }).toEqual({ set, passing: rows.get(set)!.total - failures, total: rows.get(set)!.total, listed: failures, file: set });
  }
});

test('the page lists exactly the expected 2025-11-25 failures, the revision toolwright serves', () => {
  const listed = [...conformancePage().matchAll(/^\| `([a-z0-9-]+)` \| (?!\d+ of )/gm)].map((m) => m[1]);
  expect(listed.sort()).toEqual(Object.keys(expectedFailures('2025-11-25')).sort());
});
