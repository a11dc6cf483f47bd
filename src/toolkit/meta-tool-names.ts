/**
 * The name of the opt-in meta tool that switches tool groups (see `Toolkit.enableEquipToolGroups`).
 *
 * @example
 * await session.callTool({ id: 'c1', name: EQUIP_TOOL_GROUPS, arguments: { add: ['email'], remove: ['weather'] } });
 */
export const EQUIP_TOOL_GROUPS = 'equip_tool_groups';

/**
 * The name of the meta tool that lists the skills (offered once a skill is registered).
 *
 * @example
 * const { data } = await session.callTool({ id: 'c1', name: LIST_SKILLS, arguments: {} });
 */
export const LIST_SKILLS = 'list_skills';

/**
 * The name of the meta tool that activates a scoping skill or runs an executable one.
 *
 * @example
 * await session.callTool({ id: 'c1', name: INVOKE_SKILL, arguments: { name: 'convert', parameters: { eur: 10 } } });
 */
export const INVOKE_SKILL = 'invoke_skill';
