// The reactive toolkit: registration, views and sessions, tool groups, skills and their meta tools,
// and the module a DI container binds it with.
export { Toolkit } from './toolkit';
export type { ToolkitOptions } from './toolkit';
export { ToolkitSession } from './sessions/toolkit-session';
export type { SessionOptions } from './sessions/toolkit-session';
export { ToolView } from './tool-view';
export type { ToolGroupState, ToolListOptions, RenderPromptOptions } from './view-options';
export { ToolRegistration } from './registration';
export type { RegisterOptions, ToolTarget } from './registration';
export { toolwrightModule } from './toolwright-module';
export type { ToolwrightModuleOptions, ToolGroupDefinition } from './toolwright-module';
export { defineSkill } from './skills/skill-definition';
export type { SkillDefinition, SkillContext, SkillCallOptions, SkillStep, SkillStepInput, SkillOptions } from './skills/skill-definition';
export { EQUIP_TOOL_GROUPS, LIST_SKILLS, INVOKE_SKILL } from './meta-tool-names';
export type { EquipToolGroupsOptions, SkillListing } from './meta-tools';
export type { ToolAvailability } from './availability';
export type { ToolSource } from './registry';
