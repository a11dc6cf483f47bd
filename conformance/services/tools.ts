import { setTimeout as sleep } from 'node:timers/promises';
import { Tool, ToolEmitter, ToolService, type AgentTool } from '../../src';

/**
 * The tools the conformance suite's `tools-*` scenarios call by name, written as a user writes
 * toolwright tools: a decorated service. Each method's JSDoc names its scenario.
 */
@ToolService({ group: 'conformance' })
export class ConformanceToolsService {
  /** `tools-call-simple-text`: one text part. */
  @Tool({ name: 'test_simple_text', description: 'Returns a simple text response' })
  simpleText(): string {
    return 'This is a simple text response for testing.';
  }

  /** `tools-call-error`: a thrown error becomes an `isError` result with its message. */
  @Tool({ name: 'test_error_handling', description: 'Always fails, to test error results' })
  errorHandling(): never {
    throw new Error('This tool intentionally returns an error for testing');
  }

  /** `tools-call-with-progress`: 0, 50 and 100 of 100, ~50 ms apart. */
  @Tool({ name: 'test_tool_with_progress', description: 'Reports progress 0/100, 50/100 and 100/100' })
  async withProgress(emitter: ToolEmitter): Promise<string> {
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await sleep(50);
      emitter.emit({ progress, total: 100, message: `${progress}%` });
    }
    return 'Progress tool completed';
  }
}

/**
 * `json-schema-2020-12`: a tool whose input schema uses 2020-12 keywords that the server must list
 * unchanged: `$schema`, `$defs` (with an `$anchor`), `$ref`, `additionalProperties`, and the
 * composition (`allOf`/`anyOf`) and conditional (`if`/`then`/`else`) keywords SEP-2106 adds. A
 * whole-object schema is what `AgentTool.parameters` is for (decorators describe one parameter at
 * a time).
 */
export const jsonSchema2020Tool: AgentTool = {
  name: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features',
  behaviour: { group: 'conformance' },
  parameters: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
      address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
    },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string' },
    },
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  },
  execute: (args) => `Received: ${JSON.stringify(args)}`,
};

/**
 * `http-custom-header-server-validation`: a parameter that a 2026-07-28 client mirrors into the
 * `Mcp-Param-Region` header (`x-mcp-header`); the server refuses a header that does not match the
 * argument before the tool runs.
 */
export const customHeaderTool: AgentTool = {
  name: 'test_custom_header',
  description: 'Echoes the region it was called for (mirrored into the Mcp-Param-Region header)',
  behaviour: { group: 'conformance' },
  parameters: {
    type: 'object',
    properties: { region: { type: 'string', description: 'A region name', 'x-mcp-header': 'Region' } },
    required: ['region'],
    additionalProperties: false,
  },
  execute: (args) => `region: ${String(args.region)}`,
};
