import { createHash } from 'node:crypto';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { boundInput, quoteInput } from '../../utils/quote-input';
import { linearPatternProblem } from '../../executor/validation/linear-regexp';
import { importLimit, type McpImportOptions } from './mcp-import-options';
import type { McpImportSkipCode } from './mcp-import-report';

/** @internal The longest remote name a tool may have (the MCP specification's limit). */
export const MAX_REMOTE_NAME = 128;

/** @internal What tells a remote tool's definition apart, and what it weighs. */
export interface Measured {
  /** A hash of the whole definition (description, title, schemas, annotations, execution): what tells a changed tool. */
  readonly fingerprint: string;
  /** A hash of its input schema alone: an unchanged input schema is not processed again. */
  readonly inputHash: string;
  /** The definition's size as JSON characters (what `maxSchemaBytes` and `maxCatalogBytes` count). */
  readonly size: number;
}

const hashOf = (text: string): string => createHash('sha256').update(text).digest('base64');

/**
 * @internal The tool's {@link Measured} fingerprint, input hash and size, or `undefined` when it
 * is too deep to write as JSON. Only hashes are kept: a catalogue's JSON text is not held.
 *
 * @example
 * if (measure(next)?.fingerprint !== imported.fingerprint) reimport(next);
 */
export function measure(tool: McpTool): Measured | undefined {
  try {
    const input = JSON.stringify(tool.inputSchema) ?? '';
    const rest = JSON.stringify([tool.description, tool.title, tool.outputSchema, tool.annotations, tool.execution]);
    const inputHash = hashOf(input);
    // the size of the definition written as one JSON array of those six parts
    return { fingerprint: hashOf(`${inputHash}${rest}`), inputHash, size: input.length + rest.length + 1 };
  } catch {
    return undefined;
  }
}

/** Schema keywords whose values are data, not schemas: no pattern or reference is looked for in them. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** Why a pattern of an imported schema is refused (it needs a backtracking engine), or `undefined`. */
function patternProblem(pattern: string): string | undefined {
  const problem = linearPatternProblem(pattern);
  return problem === undefined ? undefined : `its pattern ${quoteInput(pattern)} needs a backtracking regular expression engine (${boundInput(problem, 120)})`;
}

/**
 * Why a remote schema is not imported, or `undefined`: nested deeper than `maxDepth`, more than
 * `budget.left` objects and arrays (what compiling and walking it costs), a `pattern` or
 * `patternProperties` key the linear-time engine cannot run, a `$ref` outside the schema itself,
 * or an `$id` (it would enter the toolkit's shared Ajv registry). `budget.left` is lowered by the
 * nodes counted.
 */
function untrustedSchemaProblem(schema: unknown, maxDepth: number, budget: { left: number; readonly max: number }): Refusal | undefined {
  const stack: { value: object; depth: number; data: boolean }[] = [];
  if (typeof schema === 'object' && schema !== null) stack.push({ value: schema, depth: 1, data: false });
  while (stack.length > 0) {
    const { value, depth, data } = stack.pop()!;
    if (depth > maxDepth) return { code: 'too-deep', reason: `its schema nests deeper than ${maxDepth} levels (maxSchemaDepth)` };
    if (--budget.left < 0) return { code: 'too-large', reason: `its schemas hold more than ${budget.max} objects and arrays (maxSchemaNodes)` };
    for (const [key, child] of Object.entries(value)) {
      if (!data && !Array.isArray(value)) {
        let problem: string | undefined;
        if (key === 'pattern' && typeof child === 'string') problem = patternProblem(child);
        else if (key === 'patternProperties' && typeof child === 'object' && child !== null) {
          for (const property of Object.keys(child)) if ((problem = patternProblem(property)) !== undefined) break;
        } else if ((key === '$ref' || key === '$dynamicRef') && typeof child === 'string' && !child.startsWith('#')) {
          problem = `its schema refers outside itself (${key} ${quoteInput(child)})`;
        } else if (key === '$id' && typeof child === 'string') problem = `its schema declares an $id (${quoteInput(child)})`;
        if (problem !== undefined) return { code: 'unsafe-schema', reason: problem };
      }
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1, data: data || DATA_KEYWORDS.has(key) });
    }
  }
  return undefined;
}

/** @internal Why a remote tool is not imported: a kind and a text. */
export interface Refusal {
  readonly code: McpImportSkipCode;
  readonly reason: string;
}

/**
 * @internal Why a remote tool is not imported (a name that is empty or too long, a definition too
 * large, too deep or of too many nodes, untrusted patterns or references, a tool only callable as
 * an MCP task when `taskProblem` says why the client cannot call it so) as `refusal`, and the
 * objects and arrays of its input schema (`inputNodes`). `measured` is its {@link measure};
 * `knownInput` the node count of its input schema when an earlier listing already checked that
 * very schema (it is not walked again).
 *
 * @example
 * const { refusal } = remoteToolRefusal(tool, measure(tool), options, taskCallProblem(client), undefined);
 * if (refusal !== undefined) skipped.push({ name: tool.name, ...refusal });
 */
export function remoteToolRefusal(
  tool: McpTool,
  measured: Measured | undefined,
  options: McpImportOptions,
  taskProblem: string | undefined,
  knownInput: number | undefined,
): { readonly refusal?: Refusal; readonly inputNodes: number } {
  const refused = (refusal: Refusal) => ({ refusal, inputNodes: 0 });
  const nameProblem = remoteNameRefusal(tool);
  if (nameProblem !== undefined) return refused(nameProblem);
  const maxDepth = importLimit(options, 'maxSchemaDepth');
  if (measured === undefined) return refused({ code: 'too-deep', reason: `its schema nests deeper than ${maxDepth} levels (maxSchemaDepth)` });
  const maxBytes = importLimit(options, 'maxSchemaBytes');
  if (measured.size > maxBytes) return refused({ code: 'too-large', reason: `its definition is ${measured.size} characters of JSON, more than ${maxBytes} (maxSchemaBytes)` });
  if (tool.execution?.taskSupport === 'required' && taskProblem !== undefined) return refused({ code: 'task-required', reason: taskProblem });
  const max = importLimit(options, 'maxSchemaNodes');
  const budget = { left: max, max };
  const input = knownInput === undefined ? untrustedSchemaProblem(tool.inputSchema, maxDepth, budget) : undefined;
  const inputNodes = knownInput ?? max - budget.left;
  budget.left = max - inputNodes;
  const refusal = input ?? untrustedSchemaProblem(tool.outputSchema, maxDepth, budget);
  return refusal !== undefined ? refused(refusal) : { inputNodes };
}

/**
 * @internal Why a remote tool's name is refused (empty, not a string, longer than the MCP limit), or `undefined`.
 *
 * @example
 * remoteNameRefusal({ name: '', inputSchema: { type: 'object' } }); // { code: 'invalid-name', … }
 */
export function remoteNameRefusal(tool: McpTool): Refusal | undefined {
  if (typeof tool.name !== 'string' || tool.name.length === 0 || tool.name.length > MAX_REMOTE_NAME) {
    return { code: 'invalid-name', reason: `its name is not 1-${MAX_REMOTE_NAME} characters long` };
  }
  return undefined;
}
