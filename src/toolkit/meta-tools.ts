import type { AgentTool } from '../model/agent-tool';
import { parseCallArguments } from '../model/call-arguments';
import type { ToolCall } from '../model/tool-types';
import type { ExecutorParts, RoutedEntry } from '../executor/executor-parts';
import { ToolkitError } from '../errors';
import type { GroupRecord } from './availability';
import { equipGroups, equippable, equipTool, type EquipToolGroupsOptions } from './equip-tool';
import { EQUIP_TOOL_GROUPS, LIST_SKILLS } from './meta-tool-names';
import type { ToolEntry } from './registry';
import { fallbackBinding, type CallBinding, type SkillRunParts } from './skills/skill-run';
import type { ResolvedSkillOptions } from './skills/skill-definition';
import { SkillTools } from './skills/skill-tools';
import type { SkillRegistry } from './skills/skill-registry';
import type { ToolEntries } from './tool-entries';

export type { EquipToolGroupsOptions } from './equip-tool';
export type { SkillListing } from './skills/skill-tools';

/**
 * @internal The toolkit's meta tools (`list_skills`, `invoke_skill`, opt-in `equip_tool_groups`):
 * registered as `global` entries (enabled in every view), and bound by {@link route} to the view
 * that calls them. Their registered `execute` serves calls by hand (`tool.execute(...)`), in the
 * view named by the context.
 */
export class MetaTools {
  /** The meta entries this toolkit registered, by name. */
  private readonly entries = new Map<string, ToolEntry>();
  private readonly skillTools: SkillTools;
  private equip: EquipToolGroupsOptions | undefined = undefined;

  constructor(
    private readonly parts: SkillRunParts & Pick<ExecutorParts, 'validators'> & { readonly groups: ReadonlyMap<string, GroupRecord> },
    skills: SkillRegistry,
    private readonly toolEntries: ToolEntries,
    limits: ResolvedSkillOptions,
  ) {
    this.skillTools = new SkillTools(parts, skills, toolEntries, limits);
  }

  /** `equip_tool_groups` while it is offered (and not unregistered since), for the system prompt to name; else `undefined`. */
  get equipTool(): string | undefined {
    return this.equip !== undefined && this.parts.registry.has(EQUIP_TOOL_GROUPS) ? EQUIP_TOOL_GROUPS : undefined;
  }

  /** The skills changed: (re)builds `list_skills` and `invoke_skill` (the skill names are in its schema). */
  skillsChanged(): void {
    this.put(this.skillTools.tools());
  }

  /** Offers `equip_tool_groups` (or updates its options). */
  enableEquip(options: EquipToolGroupsOptions): void {
    const groups = options.groups;
    if (groups !== undefined && (!Array.isArray(groups) || groups.some((g) => typeof g !== 'string'))) {
      throw new ToolkitError('INVALID_DEFINITION', 'equipToolGroups.groups must be an array of group names.');
    }
    this.equip = groups !== undefined ? { groups: [...groups] } : {};
    this.putEquip();
  }

  /** Withdraws `equip_tool_groups`; returns whether it was offered. */
  disableEquip(): boolean {
    if (this.equip === undefined) return false;
    this.equip = undefined;
    this.entries.delete(EQUIP_TOOL_GROUPS);
    this.parts.registry.remove(EQUIP_TOOL_GROUPS);
    return true;
  }

  /** Groups were created or described: `equip_tool_groups` lists them. Returns whether it changed. */
  groupsChanged(): boolean {
    if (this.equip === undefined) return false;
    this.putEquip();
    return true;
  }

  /**
   * The entry a call of the meta tool `registered` runs, bound to the view that made it, with
   * `registered` as what the availability gate checks. An `invoke_skill` call runs as the named
   * skill's own entry; its arguments are parsed here, once (the call run takes them as parsed).
   * Malformed arguments or an unknown skill keep `registered`, whose validation answers them.
   */
  route(registered: ToolEntry, call: ToolCall, binding: CallBinding): RoutedEntry {
    let template = registered;
    let parsed: RoutedEntry['parsed'];
    let execute: AgentTool['execute'];
    switch (registered.name) {
      case LIST_SKILLS:
        execute = () => this.skillTools.list(binding);
        break;
      case EQUIP_TOOL_GROUPS:
        execute = (args) => equipGroups(args, binding, this.equippable());
        break;
      default: {
        parsed = parseCallArguments(call.arguments);
        const found = this.skillTools.templateFor(parsed);
        if (found === undefined) execute = (args, ctx) => this.skillTools.invokeNamed(args, ctx, binding);
        else {
          template = found.entry;
          execute = (args, ctx) => this.skillTools.invoke(found.record, args, ctx, binding);
        }
      }
    }
    template.validator ??= this.parts.validators.compile(template.schema);
    const entry: ToolEntry = { ...template, target: { ...template.tool, execute } };
    return { entry, checkedEntry: registered, parsed };
  }

  /** The groups `equip_tool_groups` may switch now. */
  private equippable(): GroupRecord[] {
    return equippable(this.parts.groups.values(), this.equip ?? {});
  }

  private putEquip(): void {
    this.put([equipTool(this.equippable(), (args, ctx) => equipGroups(args, fallbackBinding(this.parts, ctx), this.equippable()))]);
  }

  /** Registers (or replaces) meta tools without telling anyone (the caller does). */
  private put(tools: AgentTool[]): void {
    const registry = this.parts.registry;
    for (const tool of tools) {
      const taken = registry.get(tool.name);
      if (taken !== undefined && taken !== this.entries.get(tool.name)) {
        throw new ToolkitError(
          'DUPLICATE_TOOL',
          `Tool name '${tool.name}' is taken: ${taken.owner} already registered it, and the toolkit needs it for its own meta tool. ` +
            'Rename your tool (or unregister it) first.',
          { tool: tool.name },
        );
      }
    }
    const entries = tools.map((tool) => this.toolEntries.agentEntry(tool, {}, 'global'));
    for (const entry of entries) this.entries.set(entry.name, entry);
    registry.add(entries);
  }
}
