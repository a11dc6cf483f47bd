// The tool loop over any model provider, streaming or not, and a scripted provider for tests.
export { runToolLoop, streamToolLoop } from './run-tool-loop';
export type { ToolLoopOptions, ToolLoopResult, LoopTurn, LoopStopReason, LoopEvent } from './run-tool-loop';
export { ScriptedProvider } from './scripted-provider';
export type { ScriptedTurn, ScriptedStreamTurn } from './scripted-provider';
