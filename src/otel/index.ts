/**
 * `toolwright/otel`: OpenTelemetry tracing of tool calls. Loads `@opentelemetry/api` (an
 * optional peer dependency), which is why it is an entry point of its own.
 *
 * @example
 * import { instrumentToolkit } from 'toolwright/otel';
 * const tracing = instrumentToolkit(toolkit, { captureArguments: true });
 */
export { instrumentToolkit, GEN_AI_ATTRIBUTES, TOOLWRIGHT_TRACER_NAME } from './otel';
export type { InstrumentableToolkit, ToolTracingOptions } from './otel';
