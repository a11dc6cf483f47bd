// What a user sees of running a call: the authorization rule, hook and event types, preset values,
// call options and the completion handle of an asynchronous tool.
export type { Authorize, AuthorizeRequest, AuthorizeVerdict } from './authorization';
export type { PresetValue, PresetResolver, PresetMap } from './presets';
export type { ToolHook, HookContext, BeforeHookDecision } from './hooks';
export type { ToolEvent, ToolEventType, ToolCallEventBase } from './events';
export type { CallStartedEvent, CallRepairedEvent, CallProgressEvent, CallLogEvent, AttemptFailedEvent, RetryScheduledEvent } from './events';
export type { CallSucceededEvent, CallFailedEvent, CallTimedOutEvent, CallAbortedEvent, AsyncCompletedEvent } from './events';
export type { ToolsChangedEvent, GroupsChangedEvent, SkillChangedEvent, CallbackFailedEvent } from './events';
export type { CallOptions, CallProgress } from './call-executor';
export type { CallLog } from './executor-core';
export { AsyncCompletion } from './async-completion';
