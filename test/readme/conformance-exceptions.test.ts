import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The README's table of MCP conformance scenarios that do not pass is
 * conformance/expected-failures.json (which `npm run conformance` holds to the suite's results):
 * the same scenarios, so the README never promises more or less than CI checks.
 */
const ROOT = path.resolve(__dirname, '../..');

function readmeExceptions(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### MCP conformance');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n#', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
}

test('the README lists exactly the expected conformance failures, with a reason each', () => {
  const expected = JSON.parse(fs.readFileSync(path.join(ROOT, 'conformance/expected-failures.json'), 'utf8')) as Record<string, unknown>;
  for (const [scenario, reason] of Object.entries(expected)) {
    expect({ scenario, reason: typeof reason === 'string' && reason.length > 0 }).toEqual({ scenario, reason: true });
  }
  expect(readmeExceptions().sort()).toEqual(Object.keys(expected).sort());
});
