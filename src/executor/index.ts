// What a user sees of running a call: the authorization rule, hook and event types, preset values,
// call options and the completion handle of an asynchronous tool.
export type { Authorize, AuthorizeRequest, AuthorizeVerdict } from './authorization';
export type { PresetValue, PresetResolver, PresetMap } from './presets/presets';
export type { ToolHook, HookContext, BeforeHookDecision } from './hook-types';
export type { ToolEvent, ToolEventType, ToolCallEventBase } from './event-types';
export type { CallStartedEvent, CallRepairedEvent, CallProgressEvent, CallLogEvent, AttemptFailedEvent, RetryScheduledEvent } from './event-types';
export type { CallSucceededEvent, CallFailedEvent, CallTimedOutEvent, CallAbortedEvent, AsyncCompletedEvent } from './event-types';
export type { ToolsChangedEvent, GroupsChangedEvent, SkillChangedEvent, CallbackFailedEvent } from './event-types';
export type { CallOptions, CallProgress } from './executor-parts';
export type { CallLog } from './executor-parts';
export { AsyncCompletion } from './async/async-completion';
