import { Container } from 'inversify';
import {
  isToolResult,
  Toolkit,
  type AgentTool,
  type CallOptions,
  type JsonSchema,
  type ObjectJsonSchema,
  type ToolBehaviour,
  type ToolCall,
  type ToolCallContext,
  type ToolkitOptions,
  type ToolResult,
} from '../../src';
import { metaSchemaProblems } from './schemas';

/** A fresh Toolkit on a fresh Inversify container (unless one is given). */
export function freshToolkit(options: ToolkitOptions = {}): Toolkit {
  return new Toolkit({ container: new Container(), ...options });
}

const tracked: Toolkit[] = [];

/**
 * A {@link freshToolkit} that is remembered so that {@link expectAllSchemasMetaValid} can check
 * each registered schema.
 */
export function newToolkit(options: ToolkitOptions = {}): Toolkit {
  const toolkit = freshToolkit(options);
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

/** A plain AgentTool with an object schema of `properties` (none by default). */
export function agentTool(
  name: string,
  execute: (args: Record<string, unknown>, ctx: ToolCallContext) => unknown,
  behaviour?: ToolBehaviour,
  properties: Record<string, JsonSchema> = {},
): AgentTool {
  return {
    name,
    description: `The ${name} tool`,
    parameters: { type: 'object', properties },
    ...(behaviour ? { behaviour } : {}),
    execute,
  };
}

/**
 * A Toolkit whose one tool `name` (no parameters) counts its runs before it does `execute`:
 * "the tool did not run" is checked, not a message.
 */
export function countingToolkit(name: string, description: string, execute: AgentTool['execute']): { toolkit: Toolkit; runs: () => number } {
  const toolkit = new Toolkit();
  let runs = 0;
  toolkit.registerTool({
    name,
    description,
    parameters: { type: 'object', properties: {} },
    execute: (args, ctx) => {
      runs++;
      return execute(args, ctx);
    },
  });
  return { toolkit, runs: () => runs };
}

/** An `AgentTool` with `parameters` that records the arguments of each call in `seen` and answers `ok`. */
export function recordingTool(name: string, parameters: ObjectJsonSchema, seen: unknown[] = []): AgentTool {
  return {
    name,
    description: `The ${name} tool`,
    parameters,
    execute: (args) => {
      seen.push(args);
      return 'ok';
    },
  };
}

/** A promise that never settles: the body of a tool that hangs. */
export const hang = (): Promise<never> => new Promise<never>(() => undefined);

/** The names of a tool list. */
export const names = (tools: readonly { name: string }[]): string[] => tools.map((t) => t.name);

let nextId = 0;

/** A call with a fresh call id. */
export function toolCall(name: string, args: ToolCall['arguments'] = {}): ToolCall {
  return { id: `call_${++nextId}`, name, arguments: args };
}

/** Calls a tool with a fresh call id. */
export function call(
  target: { callTool(call: ToolCall, options?: CallOptions): Promise<ToolResult> },
  name: string,
  args: ToolCall['arguments'] = {},
  options: CallOptions = {},
): Promise<ToolResult> {
  return target.callTool(toolCall(name, args), options);
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
