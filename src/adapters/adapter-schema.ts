import type { AgentTool } from '../model/agent-tool';
import type { ToolSchema } from '../model/tool-types';

/**
 * @internal `tool` as the lowerings take it, with its examples (`behaviour.examples`, checked at
 * registration): a lowering for a framework without an examples field renders them into the
 * description, within the default budget, and reports it.
 */
export function toolSchemaOf(tool: AgentTool): ToolSchema {
  const examples = tool.behaviour?.examples;
  return { name: tool.name, description: tool.description, parameters: tool.parameters, ...(examples?.length ? { examples } : {}) };
}
