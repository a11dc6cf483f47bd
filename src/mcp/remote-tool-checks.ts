import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { boundInput, quoteInput } from '../common/quote-input';
import { ToolkitError } from '../errors';
import { linearPatternProblem } from '../executor/linear-regexp';
import { importLimit, type McpImportOptions } from './mcp-import-options';
import type { McpImportSkipCode } from './mcp-import-report';

/**
 * @internal Refuses a `Client` of the MCP TypeScript SDK 2 (`@modelcontextprotocol/client`, told
 * by its `getProtocolEra`): its notification handlers and call options take other arguments than
 * 1.x's, so an import through it would fail with a bare TypeError or lose progress and timeouts.
 *
 * @example
 * assertSdk1Client(client); // before the first listing
 */
export function assertSdk1Client(client: object): void {
  if (typeof (client as { getProtocolEra?: unknown }).getProtocolEra !== 'function') return;
  throw new ToolkitError(
    'INVALID_OPTIONS',
    'importMcpTools needs a Client of @modelcontextprotocol/sdk 1.x, and this one is from the MCP SDK 2 (@modelcontextprotocol/client). ' +
      'Connect a 1.x Client (npm install @modelcontextprotocol/sdk@1) to the same server: it imports from SDK 2 servers too.',
  );
}

/** @internal The longest remote name a tool may have (the MCP specification's limit). */
export const MAX_REMOTE_NAME = 128;

/**
 * @internal The tool's definition as JSON text (what tells a changed tool), or `undefined` when
 * it is too deep to write.
 *
 * @example
 * if (fingerprint(next) !== imported.fingerprint) reimport(next);
 */
export function fingerprint(tool: McpTool): string | undefined {
  try {
    return JSON.stringify([tool.description, tool.title, tool.inputSchema, tool.outputSchema, tool.annotations, tool.execution]);
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
 * Why a remote schema is not imported, or `undefined`: nested deeper than `maxDepth`, a `pattern`
 * or `patternProperties` key the linear-time engine cannot run, a `$ref` outside the schema
 * itself, or an `$id` (it would enter the toolkit's shared Ajv registry).
 */
function untrustedSchemaProblem(schema: unknown, maxDepth: number): Refusal | undefined {
  const stack: { value: object; depth: number; data: boolean }[] = [];
  if (typeof schema === 'object' && schema !== null) stack.push({ value: schema, depth: 1, data: false });
  while (stack.length > 0) {
    const { value, depth, data } = stack.pop()!;
    if (depth > maxDepth) return { code: 'too-deep', reason: `its schema nests deeper than ${maxDepth} levels (maxSchemaDepth)` };
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
 * large or too deep, untrusted patterns or references, a tool only callable as an MCP task when
 * `taskProblem` says why the client cannot call it so), or `undefined`. `print` is its {@link fingerprint}.
 *
 * @example
 * const refusal = remoteToolRefusal(tool, fingerprint(tool), options, taskCallProblem(client));
 * if (refusal !== undefined) skipped.push({ name: tool.name, ...refusal });
 */
export function remoteToolRefusal(tool: McpTool, print: string | undefined, options: McpImportOptions, taskProblem: string | undefined): Refusal | undefined {
  if (typeof tool.name !== 'string' || tool.name.length === 0 || tool.name.length > MAX_REMOTE_NAME) {
    return { code: 'invalid-name', reason: `its name is not 1-${MAX_REMOTE_NAME} characters long` };
  }
  const maxDepth = importLimit(options, 'maxSchemaDepth');
  if (print === undefined) return { code: 'too-deep', reason: `its schema nests deeper than ${maxDepth} levels (maxSchemaDepth)` };
  const maxBytes = importLimit(options, 'maxSchemaBytes');
  if (print.length > maxBytes) return { code: 'too-large', reason: `its definition is ${print.length} characters of JSON, more than ${maxBytes} (maxSchemaBytes)` };
  if (tool.execution?.taskSupport === 'required' && taskProblem !== undefined) return { code: 'task-required', reason: taskProblem };
  return untrustedSchemaProblem(tool.inputSchema, maxDepth) ?? untrustedSchemaProblem(tool.outputSchema, maxDepth);
}
