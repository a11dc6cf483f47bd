/**
 * `toolwright/testing`: test an agent without a model or a budget. `recordProvider` writes a
 * cassette of a real run, `replayProvider` answers from it and fails loudly when a request drifts
 * from the recording; `fuzzTool` throws generated arguments at a tool (needs the optional peer
 * dependency `fast-check`, loaded on its first call).
 *
 * @example
 * import { fuzzTool, recordProvider, replayProvider } from 'toolwright/testing';
 * const model = fs.existsSync(cassette) ? replayProvider(cassette) : recordProvider(realProvider, cassette);
 * const report = await fuzzTool(toolkit, 'get_weather', { assert: true });
 *
 * @packageDocumentation
 */
export { recordProvider, replayProvider, type RecordingProvider, type ReplayProvider } from './record-replay';
export { fuzzTool, type FuzzFinding, type FuzzFindingKind, type FuzzOptions, type FuzzReport } from './fuzz-tool';
export type { Cassette, ChatInteraction, Interaction, RecordedError, RecordedRequest, StreamInteraction } from './cassette';
