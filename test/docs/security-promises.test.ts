import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * SECURITY.md's promises and the tests that prove them point at each other: every `###` promise
 * names the folder of its tests (`Tests: \`test/…/\``), which exists and holds tests, and every
 * folder of `test/security/` is the folder of a promise (`fixtures/` folders inside them hold
 * what the tests start, not tests).
 */
const ROOT = path.resolve(__dirname, '../..');
const SECURITY = fs.readFileSync(path.join(ROOT, 'SECURITY.md'), 'utf8');
const START = SECURITY.indexOf('\n## The promises');
const END = SECURITY.indexOf('\n## ', START + 1);
const PROMISES = SECURITY.slice(START, END < 0 ? undefined : END);

/** Each `###` promise with the folder its `Tests:` line names (`undefined` without one). */
const promises = PROMISES.split(/^### /m)
  .slice(1)
  .map((section) => ({ promise: section.slice(0, section.indexOf('\n')), folder: /^Tests: `(test\/[\w/-]+\/)`$/m.exec(section)?.[1] }));

/** The test files below `dir`, at any depth. */
const testsIn = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? testsIn(path.join(dir, entry.name)) : entry.name.endsWith('.test.ts') ? [entry.name] : []));

describe('SECURITY.md promises and test/security', () => {
  it('lists the promises', () => {
    expect(promises.length).toBeGreaterThanOrEqual(10);
  });

  it('names, for each promise, an existing folder of tests', () => {
    const missing = promises.filter(({ folder }) => folder === undefined || !fs.existsSync(path.join(ROOT, folder)) || testsIn(path.join(ROOT, folder)).length === 0);
    expect(missing.map(({ promise, folder }) => `${promise}: ${folder ?? 'no Tests: line'}`)).toEqual([]);
  });

  it('has a promise for each folder of test/security', () => {
    const named = new Set(promises.map(({ folder }) => folder));
    const folders = fs.readdirSync(path.join(ROOT, 'test/security'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => `test/security/${entry.name}/`);
    expect(folders.filter((folder) => !named.has(folder))).toEqual([]);
  });

  it('keeps every test of test/security in a promise folder', () => {
    const loose = fs.readdirSync(path.join(ROOT, 'test/security')).filter((name) => name.endsWith('.ts'));
    expect(loose).toEqual([]);
  });
});
