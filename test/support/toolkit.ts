import { Ajv } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Container } from 'inversify';
import type { Subscription } from 'rxjs';
import {
  isToolResult,
  Toolkit,
  ToolkitError,
  type JsonSchema,
  type ToolCall,
  type ToolEvent,
  type ToolkitErrorCode,
  type ToolkitOptions,
  type ToolResult,
  type CallOptions,
} from '../../src';

let validators: { draft07: Ajv; draft2020: Ajv2020; strict2020: Ajv2020 } | undefined;

function metaValidators(): { draft07: Ajv; draft2020: Ajv2020; strict2020: Ajv2020 } {
  if (!validators) {
    const strict2020 = new Ajv2020({ strict: true, logger: false });
    (addFormats as unknown as (ajv: Ajv2020) => void)(strict2020);
    validators = { draft07: new Ajv({ strict: false }), draft2020: new Ajv2020({ strict: false }), strict2020 };
  }
  return validators;
}

/**
 * Problems of `schema` against the draft-07 and draft 2020-12 meta-schemas, and under Ajv's
 * strict mode (unknown keywords, formats, type/keyword mismatches). Empty when all is well.
 */
export function metaSchemaProblems(schema: JsonSchema): string[] {
  const { draft07, draft2020, strict2020 } = metaValidators();
  const problems: string[] = [];
  if (!draft07.validateSchema(schema)) problems.push(`draft-07: ${draft07.errorsText(draft07.errors)}`);
  if (!draft2020.validateSchema(schema)) problems.push(`2020-12: ${draft2020.errorsText(draft2020.errors)}`);
  try {
    strict2020.compile(schema);
  } catch (e) {
    problems.push(`strict compile: ${(e as Error).message}`);
  }
  return problems;
}

const tracked: Toolkit[] = [];

/**
 * A fresh Toolkit on a fresh Inversify container (unless one is given). Every toolkit made this
 * way is remembered so that {@link expectAllSchemasMetaValid} can check each registered schema.
 */
export function newToolkit(options: ToolkitOptions = {}): Toolkit {
  const toolkit = new Toolkit({ container: new Container(), ...options });
  tracked.push(toolkit);
  return toolkit;
}

/**
 * Checks the parameters schema of every tool registered in every toolkit made by
 * {@link newToolkit} so far (and every canonical definition), then forgets those toolkits.
 * Call it from `afterAll` so every fixture of a test file is covered.
 */
export function expectAllSchemasMetaValid(): void {
  const failures: string[] = [];
  let checked = 0;
  for (const toolkit of tracked.splice(0)) {
    for (const tool of toolkit.getAllTools()) {
      checked++;
      for (const problem of metaSchemaProblems(tool.parameters)) failures.push(`${tool.name}: ${problem}`);
    }
  }
  expect(failures).toEqual([]);
  expect(checked).toBeGreaterThan(0);
}

/** Runs `fn` and returns the ToolkitError it throws, checking its code. */
export function definitionError(fn: () => unknown, code: ToolkitErrorCode): ToolkitError {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  if (thrown === undefined) throw new Error(`expected a ToolkitError ${code}, but nothing was thrown`);
  if (!ToolkitError.is(thrown)) throw new Error(`expected a ToolkitError ${code}, got ${String(thrown)}`);
  expect(thrown).toBeInstanceOf(ToolkitError);
  expect({ code: thrown.code, message: thrown.message }).toEqual({ code, message: expect.any(String) });
  return thrown;
}

let nextId = 0;

/** Calls a tool with a fresh call id. */
export function call(
  target: { callTool(call: ToolCall, options?: CallOptions): Promise<ToolResult> },
  name: string,
  args: ToolCall['arguments'],
  options: CallOptions = {},
): Promise<ToolResult> {
  return target.callTool({ id: `call_${++nextId}`, name, arguments: args }, options);
}

/** Records every event of a toolkit until `stop()`. */
export function recordEvents(toolkit: Toolkit): { events: ToolEvent[]; stop(): void } {
  const events: ToolEvent[] = [];
  const subscription: Subscription = toolkit.events$.subscribe((e) => events.push(e));
  return { events, stop: () => subscription.unsubscribe() };
}

/** The events' JSON text, with Error objects written out (JSON.stringify drops their fields). */
export function eventsText(events: readonly ToolEvent[]): string {
  return JSON.stringify(events, (_key, value: unknown) =>
    value instanceof Error ? { name: value.name, message: value.message, stack: value.stack, cause: value.cause } : value,
  );
}

/** Asserts that `value` is a well-formed ToolResult (and an error one carries a code). */
export function expectToolResult(value: unknown): asserts value is ToolResult {
  expect(isToolResult(value)).toBe(true);
  const result = value as ToolResult;
  expect(typeof result.async).toBe('boolean');
  if (result.isError) {
    expect(typeof result.error?.code).toBe('string');
    expect(result.error?.message).toBe(result.forLLM);
  }
}
