import type * as FastCheck from 'fast-check';
import { lazyPeer } from '../utils/peer-dependency';
import { quoteInput } from '../utils/quote-input';
import type { ToolCall, ToolResult } from '../model/tool-types';
import { ToolkitError } from '../errors';
import { REDACTED } from '../executor/presets/redact';
import type { ToolView } from '../toolkit/tool-view';
import { invalidArgumentsArbitrary, schemaArbitrary } from './schema-arbitrary';

const fastCheck = lazyPeer(() => require('fast-check') as typeof FastCheck, {
  feature: 'fuzzTool (toolwright/testing)',
  modules: ['fast-check'],
  install: 'npm install --save-dev fast-check',
  optional: true,
});

/** What a fuzz run found wrong with one call. */
export type FuzzFindingKind = 'crash' | 'unhandled_rejection' | 'secret_leak' | 'slow' | 'nondeterministic';

/** One thing a fuzz run found: what, with which arguments, and what happened (bounded text). */
export interface FuzzFinding {
  readonly kind: FuzzFindingKind;
  /** The arguments of the call (`undefined` for a rejection no call could be tied to). */
  readonly arguments: unknown;
  /** True when the arguments were generated to be schema-invalid. */
  readonly invalid: boolean;
  /** What happened, for a person. Never holds a secret of `options.secrets`. */
  readonly message: string;
}

/** What {@link fuzzTool} did and found. */
export interface FuzzReport {
  /** The tool fuzzed. */
  readonly tool: string;
  /** The fast-check seed: pass it as `options.seed` to run the same arguments again. */
  readonly seed: number;
  /** Calls with schema-valid arguments (determinism checks not counted). */
  readonly validRuns: number;
  /** Calls with schema-invalid arguments. */
  readonly invalidRuns: number;
  /** Generated valid arguments the toolkit still refused (`INVALID_ARGUMENTS`: a keyword the generator does not know). */
  readonly refused: number;
  /** True when the time budget ended the run before every planned call. */
  readonly budgetExhausted: boolean;
  /** How long the run took. */
  readonly durationMs: number;
  /** What was found, in the order found. */
  readonly findings: readonly FuzzFinding[];
  /** True when nothing was found. */
  readonly ok: boolean;
}

/** Options of {@link fuzzTool}. */
export interface FuzzOptions {
  /** Calls with schema-valid arguments (default 50). */
  readonly numRuns?: number | undefined;
  /** Calls with schema-invalid arguments (default half of `numRuns`). */
  readonly invalidRuns?: number | undefined;
  /** The run stops starting calls after this long (default 10 000 ms); a call still running then counts as slow. */
  readonly timeBudgetMs?: number | undefined;
  /** A call slower than this is a `slow` finding (default 1000 ms). */
  readonly slowMs?: number | undefined;
  /** The fast-check seed (default: random, reported). */
  readonly seed?: number | undefined;
  /** Values that must never appear in a result or an error: preset values, API keys. */
  readonly secrets?: readonly string[] | undefined;
  /**
   * Call each valid argument set twice (when the first call succeeds) and compare the results: default on for tools annotated
   * `readOnly` or `idempotent`, off for the others.
   */
  readonly determinism?: boolean | undefined;
  /** Throw an `EXECUTION_FAILED` error listing the findings when there are any (default false). */
  readonly assert?: boolean | undefined;
}

/** The parts of a result that must repeat on the same arguments. */
const comparable = (result: ToolResult): string => JSON.stringify({ forLLM: result.forLLM, data: result.data, isError: result.isError, code: result.error?.code, content: result.content });

function mask(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text);
}

const MAX_FINDINGS_IN_ERROR = 5;

/**
 * Throws generated arguments at one tool of `view` through `view.callTool` (validation, hooks,
 * presets and timeouts all apply, as for a model's call): schema-valid ones from its JSON Schema,
 * then schema-invalid ones (a required property dropped, a wrong type, an unknown property, a
 * non-object, cut JSON), with fast-check (an optional peer, loaded on the first call). It reports
 * crashes (`EXECUTION_FAILED`, on valid or invalid arguments), rejections left unhandled while
 * the tool ran, `options.secrets` in a result or an error, calls slower than `options.slowMs`,
 * and — for `readOnly`/`idempotent` tools — a different result for the same arguments. Bounded
 * by `numRuns`, `invalidRuns` and `timeBudgetMs`.
 *
 * @example
 * const report = await fuzzTool(toolkit, 'get_weather', { numRuns: 100, secrets: [process.env.WEATHER_KEY!], assert: true });
 * @throws ToolkitError `UNKNOWN_TOOL` when the view does not show the tool; `PEER_DEPENDENCY_MISSING`
 * without fast-check; `EXECUTION_FAILED` listing the findings when `assert` is set.
 */
export async function fuzzTool(view: ToolView, name: string, options: FuzzOptions = {}): Promise<FuzzReport> {
  const tool = view.getActiveTools().find((candidate) => candidate.name === name);
  const visible = view.getToolSchemas().find((candidate) => candidate.name === name);
  if (tool === undefined || visible === undefined) throw new ToolkitError('UNKNOWN_TOOL', `fuzzTool: the view shows no tool ${quoteInput(name)}.`, { tool: name });
  const fc = fastCheck();
  const numRuns = Math.max(0, Math.floor(options.numRuns ?? 50));
  const invalidRuns = Math.max(0, Math.floor(options.invalidRuns ?? Math.ceil(numRuns / 2)));
  const slowMs = options.slowMs ?? 1000;
  const budgetMs = options.timeBudgetMs ?? 10_000;
  const secrets = (options.secrets ?? []).filter((secret) => secret.length > 0);
  const annotations = tool.behaviour?.annotations;
  const determinism = options.determinism ?? (annotations?.readOnly === true || annotations?.idempotent === true);
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  // the schema the model sees: preset parameters hidden
  const schema = visible.parameters as unknown as Readonly<Record<string, unknown>>;
  const valid = numRuns === 0 ? [] : fc.sample(schemaArbitrary(fc, schema), { numRuns, seed });
  const invalid = invalidRuns === 0 ? [] : fc.sample(invalidArgumentsArbitrary(fc, schema), { numRuns: invalidRuns, seed: seed + 1 });

  const findings: FuzzFinding[] = [];
  const started = Date.now();
  const deadline = started + budgetMs;
  let current: { args: unknown; invalid: boolean } | undefined;
  const onRejection = (reason: unknown): void => {
    const message = reason instanceof Error ? reason.message : String(reason);
    findings.push({ kind: 'unhandled_rejection', arguments: current?.args, invalid: current?.invalid ?? false, message: mask(`a promise rejected with nobody handling it: ${quoteInput(message, 200)}`, secrets) });
  };
  let ids = 0;
  let refused = 0;
  let budgetExhausted = false;
  const call = async (args: unknown, isInvalid: boolean): Promise<ToolResult | undefined> => {
    current = { args, invalid: isInvalid };
    const remaining = deadline - Date.now();
    const controller = new AbortController();
    const toolCall: ToolCall = { id: `fuzz_${++ids}`, name, arguments: args as ToolCall['arguments'] };
    const before = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      view.callTool(toolCall, { signal: controller.signal }),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), Math.max(remaining, slowMs + 1));
      }),
    ]).finally(() => clearTimeout(timer));
    const took = Date.now() - before;
    await new Promise((resolve) => setImmediate(resolve));
    if (outcome === undefined) {
      controller.abort(new ToolkitError('ABORTED', 'fuzzTool: the time budget ran out.'));
      findings.push({ kind: 'slow', arguments: args, invalid: isInvalid, message: `the call did not answer within ${took} ms (the time budget ran out); it was aborted` });
      return undefined;
    }
    if (took > slowMs) findings.push({ kind: 'slow', arguments: args, invalid: isInvalid, message: `the call took ${took} ms (slowMs is ${slowMs})` });
    if (outcome.error?.code === 'EXECUTION_FAILED') findings.push({ kind: 'crash', arguments: args, invalid: isInvalid, message: mask(`EXECUTION_FAILED: ${quoteInput(outcome.error.message, 300)}`, secrets) });
    const text = JSON.stringify(outcome);
    const leaked = secrets.filter((secret) => text.includes(secret)).length;
    if (leaked > 0) findings.push({ kind: 'secret_leak', arguments: args, invalid: isInvalid, message: `the ${outcome.isError ? 'error' : 'result'} holds ${leaked} of the secret values` });
    if (!isInvalid && outcome.error?.code === 'INVALID_ARGUMENTS') refused++;
    return outcome;
  };

  process.on('unhandledRejection', onRejection);
  try {
    for (const args of valid) {
      if (Date.now() >= deadline) {
        budgetExhausted = true;
        break;
      }
      const first = await call(args, false);
      if (!determinism || first === undefined || first.isError) continue;
      const second = await call(args, false);
      if (second !== undefined && comparable(first) !== comparable(second)) {
        findings.push({ kind: 'nondeterministic', arguments: args, invalid: false, message: mask(`the same arguments gave ${quoteInput(comparable(first), 150)}, then ${quoteInput(comparable(second), 150)}`, secrets) });
      }
    }
    for (const args of budgetExhausted ? [] : invalid) {
      if (Date.now() >= deadline) {
        budgetExhausted = true;
        break;
      }
      await call(args, true);
    }
  } finally {
    process.off('unhandledRejection', onRejection);
  }
  const report: FuzzReport = {
    tool: name,
    seed,
    validRuns: valid.length,
    invalidRuns: invalid.length,
    refused,
    budgetExhausted,
    durationMs: Date.now() - started,
    findings,
    ok: findings.length === 0,
  };
  if (options.assert === true && findings.length > 0) {
    const listed = findings.slice(0, MAX_FINDINGS_IN_ERROR).map((f) => `${f.kind}: ${f.message} (arguments ${mask(quoteInput(JSON.stringify(f.arguments) ?? 'undefined', 120), secrets)})`);
    const more = findings.length > MAX_FINDINGS_IN_ERROR ? `\n  … and ${findings.length - MAX_FINDINGS_IN_ERROR} more` : '';
    throw new ToolkitError('EXECUTION_FAILED', `fuzzTool: ${findings.length} finding(s) on ${quoteInput(name)} (seed ${seed}):\n  ${listed.join('\n  ')}${more}`, { tool: name });
  }
  return report;
}
