'use strict';
/**
 * `npm run conformance [-- scenario…]`: runs the official MCP conformance suite
 * (@modelcontextprotocol/conformance, a devDependency) against toolwright's conformance server
 * (conformance/server.ts) over Streamable HTTP on 127.0.0.1, and compares the outcome with
 * conformance/expected-failures.json.
 *
 * - The suite needs Node 22 (fs.globSync). When this Node is older, a Node 22 binary from the npm
 *   registry (node-<platform>-<arch>) is installed once into .cache/node22 (gitignored) by
 *   scripts/cached-package.js.
 * - Every server scenario of the suite runs (its `--suite all`: the pending ones too), unless
 *   scenario names are given on the command line.
 * - Exit code 1 when a scenario fails that is not an expected failure, when an expected failure
 *   passes (remove it from the list), or when the list names a scenario the suite does not have.
 *
 * Environment: CONFORMANCE_NODE=/path/to/node22 uses that binary instead of the cache;
 * CONFORMANCE_VERBOSE=1 prints the suite's own output.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { major, nodeBinary } = require('./cached-package');

const root = path.resolve(__dirname, '..');
const EXPECTED_FAILURES = path.join(root, 'conformance', 'expected-failures.json');
const SUITE_CLI = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
const SUITE_VERSION = require('@modelcontextprotocol/conformance/package.json').version;
/** The whole suite takes ~20 s; a hung scenario must not hang CI. */
const SUITE_TIMEOUT_MS = 10 * 60_000;

const log = (line) => process.stdout.write(`${line}\n`);

/** A Node ≥ 22 binary: this one, $CONFORMANCE_NODE, or the cached npm package (installed when missing). */
function node22() {
  if (process.env.CONFORMANCE_NODE) return process.env.CONFORMANCE_NODE;
  return major(process.version) >= 22 ? process.execPath : nodeBinary(22);
}

/** Runs the suite's CLI with Node 22; resolves with its exit code and output. */
function runSuite(node, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [SUITE_CLI, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk) => {
      output += chunk;
      if (process.env.CONFORMANCE_VERBOSE) process.stdout.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

/** The suite's server scenarios, from `conformance list --server`. */
async function listScenarios(node) {
  const { code, output } = await runSuite(node, ['list', '--server']);
  const names = [...output.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
  if (code !== 0 || names.length === 0) throw new Error(`conformance list --server failed (exit ${code}):\n${output}`);
  return names;
}

/** `server-<scenario>-<ISO timestamp with : and . as ->`, as the suite names its result folders. */
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** Each scenario's checks (checks.json), read from the suite's output folder. */
function readResults(outputDir) {
  const results = new Map();
  for (const entry of fs.readdirSync(outputDir)) {
    const match = RESULT_DIR.exec(entry);
    if (!match) continue;
    results.set(match[1], JSON.parse(fs.readFileSync(path.join(outputDir, entry, 'checks.json'), 'utf8')));
  }
  return results;
}

function summarise(checks) {
  const count = (status) => (checks ?? []).filter((c) => c.status === status).length;
  const passed = count('SUCCESS');
  const failed = count('FAILURE');
  // a scenario without checks did not run to the end (the suite threw): a failure
  return { passed, failed, warnings: count('WARNING'), ok: checks !== undefined && checks.length > 0 && failed === 0 };
}

function loadExpectedFailures() {
  const raw = JSON.parse(fs.readFileSync(EXPECTED_FAILURES, 'utf8'));
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`${EXPECTED_FAILURES}: expected an object { scenario: reason }`);
  return new Map(Object.entries(raw));
}

async function main() {
  const wanted = process.argv.slice(2);
  const node = node22();
  const expected = loadExpectedFailures();
  const all = await listScenarios(node);
  const unknown = [...wanted, ...expected.keys()].filter((name) => !all.includes(name));
  const scenarios = wanted.length > 0 ? wanted.filter((name) => all.includes(name)) : all;

  // the server runs in this process (Node 20 is fine for toolwright); the suite in a Node 22 child
  require('./swc-register');
  const { startConformanceServer } = require('../conformance/server.ts');
  const server = await startConformanceServer();
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-conformance-'));
  let results;
  let run;
  try {
    log(`MCP conformance suite ${SUITE_VERSION} (Node ${spawnSync(node, ['--version']).stdout.toString().trim()}) against ${server.url.href}: ${scenarios.length} scenarios`);
    const args = ['server', '--url', server.url.href, '--output-dir', outputDir];
    if (wanted.length === 0) {
      run = await runSuite(node, [...args, '--suite', 'all']);
    } else {
      const outputs = [];
      for (const scenario of scenarios) outputs.push(await runSuite(node, [...args, '--scenario', scenario]));
      run = { code: 0, output: outputs.map((o) => o.output).join('\n') };
    }
    results = readResults(outputDir);
  } finally {
    await server.close();
    fs.rmSync(outputDir, { recursive: true, force: true });
  }
  if (run.signal) log(`the suite was killed (${run.signal}) after ${SUITE_TIMEOUT_MS / 1000} s`);

  const rows = scenarios.map((scenario) => {
    const checks = results.get(scenario);
    const summary = summarise(checks);
    const reason = expected.get(scenario);
    let verdict;
    if (summary.ok) verdict = reason === undefined ? 'pass' : 'UNEXPECTED PASS';
    else verdict = reason === undefined ? 'FAIL' : 'expected failure';
    return { scenario, checks, ...summary, verdict, reason };
  });

  const width = Math.max(...rows.map((r) => r.scenario.length), 'scenario'.length);
  log('');
  log(`${'scenario'.padEnd(width)}  passed  failed  warn  verdict`);
  for (const r of rows) {
    log(`${r.scenario.padEnd(width)}  ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${String(r.warnings).padStart(4)}  ${r.verdict}`);
  }
  const total = (key) => rows.reduce((sum, r) => sum + r[key], 0);
  log('');
  log(
    `${rows.filter((r) => r.ok).length}/${rows.length} scenarios pass; checks: ${total('passed')} passed, ${total('failed')} failed, ${total('warnings')} warnings`,
  );

  const problems = [];
  for (const r of rows) {
    if (r.verdict === 'FAIL') {
      const failures = (r.checks ?? []).filter((c) => c.status === 'FAILURE');
      const why = r.checks === undefined ? 'no results (the scenario threw; CONFORMANCE_VERBOSE=1 shows the suite output)' : failures.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`).join('; ');
      problems.push(`${r.scenario} fails: ${why}`);
    }
    if (r.verdict === 'UNEXPECTED PASS') problems.push(`${r.scenario} passes now: remove it from conformance/expected-failures.json (and the README list)`);
  }
  for (const name of unknown) problems.push(`${name}: no such server scenario in the suite ${SUITE_VERSION}`);
  if (problems.length > 0) {
    log('');
    for (const problem of problems) log(`✗ ${problem}`);
    if (!process.env.CONFORMANCE_VERBOSE && rows.some((r) => r.checks === undefined)) log(run.output.slice(-4000));
    process.exitCode = 1;
  }
}

main().catch((error) => {
  process.stderr.write(`conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
