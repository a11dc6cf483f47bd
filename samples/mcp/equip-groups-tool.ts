import type { AgentTool, Toolkit } from '../../src';

/**
 * A tool that lets the model switch tool groups on or off for its own session (the MCP
 * session when served with `sessions: true`). The MCP client then gets
 * `notifications/tools/list_changed` and lists the tools again.
 */
export function equipGroupsTool(toolkit: Toolkit): AgentTool {
  const groups = toolkit.getToolGroups().map((g) => g.name);
  return {
    name: 'equip_tool_groups',
    description: `Switch tool groups on or off for this conversation. Groups: ${toolkit
      .getToolGroups()
      .map((g) => `${g.name} (${g.description || 'no description'})`)
      .join(', ')}.`,
    parameters: {
      type: 'object',
      properties: {
        groups: { type: 'array', items: { type: 'string', enum: groups }, minItems: 1, description: 'Group names' },
        active: { type: 'boolean', description: 'true to switch on, false to switch off' },
      },
      required: ['groups', 'active'],
      additionalProperties: false,
    },
    behaviour: { annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false } },
    execute: (args, ctx) => {
      const names = args.groups as string[];
      const active = args.active === true;
      const view = ctx.sessionId !== undefined ? toolkit.session(ctx.sessionId) : toolkit;
      view.updateToolGroups(names, active);
      return `Groups ${names.join(', ')} are ${active ? 'on' : 'off'}. Active groups: ${view.getActiveGroups().join(', ') || '(none)'}.`;
    },
  };
}
