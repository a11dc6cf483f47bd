import 'reflect-metadata';

export { ToolkitError, describeThrown } from './errors';
export type { ToolkitErrorCode, ToolkitErrorOptions } from './errors';
export * from './common';
export { Tool, ToolParam, ToolService } from './decorators';
export type { ToolOptions, ToolParamOptions, ToolServiceOptions, TypeHint, EnumLike, Constructor } from './metadata/records';
export { loadManifest, parseManifest } from './schema/manifest-loader';
export { Toolkit } from './toolkit/toolkit';
export type { ToolkitOptions } from './toolkit/toolkit';
export { ToolkitSession } from './toolkit/session';
export type { SessionOptions } from './toolkit/session';
export { ToolView } from './toolkit/tool-view';
export type { ToolGroupState } from './toolkit/tool-view';
export { ToolRegistration } from './toolkit/registration';
export type { RegisterOptions, ToolTarget } from './toolkit/registration';
export { fromContainer } from './executor/presets';
export type { PresetValue, PresetResolver, PresetMap, ContainerPreset } from './executor/presets';
export { defineSkill } from './toolkit/skills';
export type { SkillDefinition, SkillContext, SkillCallOptions, SkillStep, SkillStepInput, SkillOptions } from './toolkit/skills';
export { EQUIP_TOOL_GROUPS, LIST_SKILLS, INVOKE_SKILL } from './toolkit/meta-tools';
export type { EquipToolGroupsOptions, SkillListing } from './toolkit/meta-tools';
export type { ToolAvailability } from './toolkit/activation';
export type { RenderPromptOptions } from './toolkit/tool-view';
export type { ToolHook, HookContext, BeforeHookDecision } from './executor/hooks';
export type {
  ToolEvent,
  ToolEventType,
  ToolCallEventBase,
  CallStartedEvent,
  CallProgressEvent,
  AttemptFailedEvent,
  RetryScheduledEvent,
  CallSucceededEvent,
  CallFailedEvent,
  CallTimedOutEvent,
  CallAbortedEvent,
  AsyncCompletedEvent,
  ToolsChangedEvent,
  GroupsChangedEvent,
  SkillChangedEvent,
  CallbackFailedEvent,
} from './executor/events';
export type { ToolSource } from './toolkit/registry';
export type { CallOptions, CallProgress } from './executor/call-executor';
export { AsyncCompletion } from './executor/async-completion';
export * from './schema/lowering';
export { runToolLoop, ScriptedProvider } from './loop';
export type { ToolLoopOptions, ToolLoopResult, LoopTurn, LoopStopReason, ScriptedTurn } from './loop';
export * from './pipeline';
