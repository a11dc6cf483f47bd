/**
 * Per-provider lowering of canonical tool schemas, with a report of every change, and the
 * reverse mapping of the arguments models send back.
 *
 * @example
 * import { lowerToolSchemas, restoreArguments } from './schema/lowering';
 * const { definitions, report } = lowerToolSchemas(tools, 'openai', { strict: true });
 */
export { lowerToolSchemas, lowerToolSchema, lowerToolOrOmit, assertToolName } from './lower-tool-schemas';
export type { LoweredOrOmitted } from './lower-tool-schemas';
export { warnOmission, deliverLoweringReport } from './omission-warning';
export { restoreArguments, compileArgumentRestorer, loweringRestoresArguments } from './restore-arguments';
export type { ArgumentRestorer } from './restore-arguments';
export {
  PROVIDER_NAME_RULES,
  OPENAI_STRICT_KEYWORDS,
  OPENAI_STRICT_FORMATS,
  OPENAI_STRICT_LIMITS,
  GEMINI_SCHEMA_KEYWORDS,
  GEMINI_FORMATS,
} from './provider-rules';
/** The definition types of every provider (listed by name at the package entry point). */
export type * from './provider-definitions';
