export { runToolLoop } from './run-tool-loop';
export type { ToolLoopOptions, ToolLoopResult, LoopTurn, LoopStopReason } from './run-tool-loop';
export { ScriptedProvider } from './scripted-provider';
export type { ScriptedTurn } from './scripted-provider';
