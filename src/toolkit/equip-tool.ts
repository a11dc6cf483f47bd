import { ToolExecutionContext } from '../model/execution-context';
import type { AgentTool } from '../model/agent-tool';
import type { JsonSchema } from '../model/json-schema';
import { quoteInputs } from '../utils/quote-input';
import { errorResult, toolResult } from '../model/results';
import type { ToolResult } from '../model/tool-types';
import type { GroupRecord } from './availability';
import { EQUIP_TOOL_GROUPS } from './meta-tool-names';
import type { CallBinding } from './skills/skill-run';

/**
 * Options of the opt-in `equip_tool_groups` meta tool (`new Toolkit({ equipToolGroups })` or
 * `toolkit.enableEquipToolGroups(options)`).
 *
 * @example
 * toolkit.enableEquipToolGroups({ groups: ['weather', 'email'] }); // 'admin' stays out of the model's reach
 */
export interface EquipToolGroupsOptions {
  /** The groups the model may switch (default: every group, including groups created later). */
  groups?: readonly string[] | undefined;
}

/** @internal The groups `equip_tool_groups` may switch. */
export function equippable(groups: Iterable<GroupRecord>, options: EquipToolGroupsOptions): GroupRecord[] {
  const allowed = options.groups;
  const all = [...groups];
  return allowed === undefined ? all : all.filter((g) => allowed.includes(g.name));
}

/**
 * @internal The `equip_tool_groups` tool over `groups` (the equippable ones); `execute` runs it
 * without the dispatcher (a call by hand).
 */
export function equipTool(groups: readonly GroupRecord[], execute: AgentTool['execute']): AgentTool {
  const names = groups.map((g) => g.name);
  const list: JsonSchema = { type: 'array', items: names.length ? { type: 'string', enum: names } : { type: 'string' }, uniqueItems: true };
  const listed = groups.map((g) => (g.description ? `${g.name} (${g.description})` : g.name)).join(', ') || '(none yet)';
  return {
    name: EQUIP_TOOL_GROUPS,
    description:
      'Switch tool groups on (add) or off (remove) for this conversation; their tools appear or disappear. ' +
      `Call it with no arguments to see which groups are on. Groups: ${listed}.`,
    parameters: {
      type: 'object',
      properties: {
        add: { ...list, description: 'Groups to switch on.' },
        remove: { ...list, description: 'Groups to switch off.' },
      },
      additionalProperties: false,
    },
    behaviour: { annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false } },
    execute,
  };
}

/** @internal Switches groups on and off in the calling view; answers with the groups and tools now active. */
export function equipGroups(args: Record<string, unknown>, binding: CallBinding, groups: readonly GroupRecord[]): ToolResult {
  const add = (args.add as string[] | undefined) ?? [];
  const remove = (args.remove as string[] | undefined) ?? [];
  const allowed = new Set(groups.map((g) => g.name));
  const unknown = [...add, ...remove].filter((name) => !allowed.has(name));
  if (unknown.length) {
    return errorResult(
      `Unknown group(s) ${quoteInputs(unknown)}. Groups you can switch: ${[...allowed].join(', ') || '(none)'}.`,
      'INVALID_ARGUMENTS',
    );
  }
  const both = add.filter((name) => remove.includes(name));
  if (both.length) {
    return errorResult(`Group(s) ${quoteInputs(both)} are both in add and remove; name each group once.`, 'INVALID_ARGUMENTS');
  }
  const { view, options } = binding;
  if (add.length) view.updateToolGroups(add, true);
  if (remove.length) view.updateToolGroups(remove, false);
  const skill = view.activeSkill;
  const active = view.getActiveGroups().filter((g) => allowed.has(g));
  const text =
    `Active groups: ${active.join(', ') || '(none)'}. Available tools: ${view.getActiveTools({ context: ToolExecutionContext.merge(options.agentContext, options.context) }).map((t) => t.name).join(', ') || '(none)'}.` +
    (skill !== undefined ? ` Skill '${skill}' is active: groups switched on now stay on only until it is deactivated.` : '');
  return toolResult(text, { activeGroups: active });
}
