'use strict';
/**
 * How `npm run conformance` (scripts/conformance.js) reads the MCP conformance suite and judges a
 * requirement set against its expected failures. No I/O beyond reading the suite's result folder.
 */
const fs = require('node:fs');
const path = require('node:path');

/**
 * A revision's server scenarios from the output of `conformance list --server --requirements <r>`:
 * `required` (the "Server scenarios" list) and `unscored(...reasons)` (the `[server]` entries
 * under those reasons of "Run and reported, but never scored"). Undefined when nothing was found.
 */
function parseRequirements(output) {
  const required = [];
  const unscored = new Map();
  let section;
  for (const line of output.split('\n')) {
    if (/^Server scenarios/.test(line)) section = 'required';
    else if (/^\S/.test(line)) section = line.startsWith('Run and reported') ? 'unscored' : undefined;
    const reason = section?.startsWith('unscored') ? /^ {2}([a-z-]+) \(\d+\):$/.exec(line) : null;
    if (reason) section = `unscored:${reason[1]}`;
    const item = /^\s+- (\S+)( \[server\])?$/.exec(line);
    if (!item) continue;
    if (section === 'required') required.push(item[1]);
    else if (section?.startsWith('unscored:') && item[2]) unscored.set(item[1], section.slice('unscored:'.length));
  }
  if (required.length === 0) return undefined;
  return { required, unscored: (...reasons) => [...unscored].filter(([, why]) => reasons.includes(why)).map(([name]) => name) };
}

/** `server-<scenario>-<ISO timestamp with : and . as ->`, as the suite names its result folders. */
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** Each scenario's checks (checks.json; `null` when the scenario threw before writing them). */
function readResults(outputDir) {
  const results = new Map();
  for (const entry of fs.existsSync(outputDir) ? fs.readdirSync(outputDir) : []) {
    const match = RESULT_DIR.exec(entry);
    if (!match) continue;
    const file = path.join(outputDir, entry, 'checks.json');
    results.set(match[1], fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);
  }
  return results;
}

/**
 * A scenario's counts and state: `pass` (a successful check and no failed one), `fail`, `skipped`
 * (every check skipped), `threw` (checks `null`), `missing` (no result at all).
 */
function summarise(checks) {
  // a scenario that threw counts one failed check, as the suite's own summary does
  if (checks === null) return { passed: 0, failed: 1, warnings: 0, state: 'threw' };
  if (checks === undefined) return { passed: 0, failed: 0, warnings: 0, state: 'missing' };
  const count = (status) => checks.filter((c) => c.status === status).length;
  const [passed, failed, warnings, skipped] = ['SUCCESS', 'FAILURE', 'WARNING', 'SKIPPED'].map(count);
  const state = failed > 0 ? 'fail' : passed > 0 ? 'pass' : skipped > 0 ? 'skipped' : 'fail';
  return { passed, failed, warnings, state };
}

/**
 * A scenario's verdict: a missing result is never an expected failure (a suite that did not run
 * is not a list of known gaps); a listed scenario that passes is one.
 */
function verdictOf(state, reason) {
  if (state === 'missing') return 'NO RESULT';
  if (state === 'pass') return reason === undefined ? 'pass' : 'UNEXPECTED PASS';
  const how = state === 'fail' ? '' : ` (${state})`;
  return reason === undefined ? `FAIL${how}` : `expected failure${how}`;
}

function failureText(row) {
  if (row.state === 'threw') return 'the scenario threw (CONFORMANCE_VERBOSE=1 shows the suite output)';
  if (row.state === 'missing') return 'no result: the suite did not run it (an expected failure must still run)';
  if (row.state === 'skipped') return 'the suite skipped every check';
  const failures = row.checks.filter((c) => c.status === 'FAILURE');
  const shown = failures.slice(0, 5).map((c) => `${c.id}: ${String(c.errorMessage ?? c.description).replace(/\s+/g, ' ').slice(0, 200)}`);
  return shown.join('; ') + (failures.length > 5 ? `; and ${failures.length - 5} more failed checks` : '');
}

/**
 * Judges one set: `scenarios` in order, `results` (scenario → checks, as {@link readResults}),
 * `expected` (scenario → reason). Returns the rows, the problems that fail the run, and the
 * set's figures line.
 */
function judgeSet({ name, scenarios, results, expected }) {
  const rows = scenarios.map((scenario) => {
    const checks = results.get(scenario);
    const summary = summarise(checks);
    const reason = expected.get(scenario);
    return { scenario, checks, reason, ...summary, verdict: verdictOf(summary.state, reason) };
  });
  const problems = [];
  for (const row of rows) {
    if (row.verdict.startsWith('FAIL') || row.verdict === 'NO RESULT') problems.push(`[${name}] ${row.scenario} fails: ${failureText(row)}`);
    if (row.verdict === 'UNEXPECTED PASS') problems.push(`[${name}] ${row.scenario} passes now: remove it from conformance/expected-failures/${name}.json`);
  }
  const total = (key) => rows.reduce((sum, row) => sum + row[key], 0);
  const skipped = rows.filter((row) => row.state === 'skipped').length;
  const figure =
    `${name.padEnd(10)}  ${rows.filter((row) => row.state === 'pass').length}/${rows.length} scenarios pass` +
    `${skipped > 0 ? ` (${skipped} skipped by the suite)` : ''}; checks: ${total('passed')} passed, ${total('failed')} failed, ${total('warnings')} warnings`;
  return { rows, problems, figure };
}

module.exports = { parseRequirements, readResults, summarise, verdictOf, judgeSet };
