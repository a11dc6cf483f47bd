/**
 * Every error code toolwright produces.
 *
 * Definition-time and misuse codes are thrown as {@link ToolkitError} (by `registerTool`,
 * constructors, `activateSkill`…); call-time codes travel in `ToolResult.error.code` (a call never
 * rejects for them). The README's "Error codes" tables list each with its meaning.
 */
export type ToolkitErrorCode =
  // definition time: registering tools, groups, skills and manifests
  | 'REFLECT_METADATA_MISSING'
  | 'DECORATOR_METADATA_MISSING'
  | 'MISSING_NAME'
  | 'MISSING_DESCRIPTION'
  | 'INVALID_NAME'
  | 'DUPLICATE_TOOL'
  | 'DUPLICATE_RESOURCE'
  | 'DUPLICATE_PROMPT'
  | 'UNRESOLVABLE_PARAMETER'
  | 'INVALID_DEFINITION'
  | 'UNKNOWN_GROUP'
  | 'UNKNOWN_SKILL'
  | 'MISSING_REQUIRED_TOOLS'
  | 'MANIFEST_MISMATCH'
  | 'SERVICE_RESOLUTION_FAILED'
  | 'INVALID_CONTEXT'
  | 'PEER_DEPENDENCY_MISSING'
  // misuse at run time: a bad option value, a bad restore() input, an unknown provider, a file that is no manifest
  | 'INVALID_OPTIONS'
  | 'INVALID_SNAPSHOT'
  | 'UNKNOWN_PROVIDER'
  | 'INVALID_MANIFEST'
  // the build-time generator (toolwright-schema, generateManifest)
  | 'CLI_USAGE'
  | 'NO_MATCHING_FILES'
  | 'INVALID_TSCONFIG'
  // an imported MCP catalogue past one of `importMcpTools`' bounds (pages, tools, time)
  | 'IMPORT_LIMIT_EXCEEDED'
  // call time: the call itself
  | 'UNKNOWN_TOOL'
  // reading a resource, getting a prompt: the Promise rejects with a ToolkitError (MCP answers a JSON-RPC error)
  | 'UNKNOWN_RESOURCE'
  | 'UNKNOWN_PROMPT'
  | 'TOOL_DISABLED'
  | 'FORBIDDEN'
  | 'MALFORMED_ARGUMENTS'
  | 'INVALID_ARGUMENTS'
  | 'CONTEXT_MISSING'
  | 'EXECUTION_FAILED'
  | 'DUPLICATE_CALL_ID'
  | 'TIMEOUT'
  | 'ABORTED'
  // call time: hooks (approval, guardrails) and providers
  | 'DENIED'
  | 'HOOK_FAILED'
  | 'APPROVAL_PENDING'
  | 'APPROVAL_REJECTED'
  | 'APPROVAL_NOT_PENDING'
  | 'APPROVAL_CONTEXT_REQUIRED'
  | 'APPROVAL_CONTEXT_CONFLICT'
  | 'APPROVAL_IDENTITY_MISSING'
  | 'APPROVAL_LIMIT_EXCEEDED'
  | 'APPROVAL_STORE_FAILED'
  | 'APPROVAL_CHANGED'
  | 'RESULT_WITHHELD'
  // a content part a tool returned (or a content helper was given) is malformed
  | 'INVALID_CONTENT'
  | 'PROVIDER_FAILED'
  // call time: a tool's requests to the client that called it (sampling, elicitation)
  | 'CLIENT_UNAVAILABLE'
  | 'CLIENT_CAPABILITY_MISSING'
  | 'CLIENT_REQUEST_FAILED'
  // runToolLoop refusing a call: a tool-call budget used up / the same call repeated too often
  | 'TOOL_BUDGET_EXCEEDED'
  | 'REPEATED_CALL'
  // skills and sessions (thrown by activateSkill / session methods, or carried by results)
  | 'SKILL_FAILED'
  | 'SKILL_LIMIT_EXCEEDED'
  | 'SESSION_CLOSED'
  // queued tools (toolwright/bullmq): a preset bound only on the workers, the queue's Redis, a worker lost mid-call
  | 'PRESET_UNBOUND'
  | 'QUEUE_UNAVAILABLE'
  | 'WORKER_LOST';

/** Options of a {@link ToolkitError}. */
export interface ToolkitErrorOptions {
  /** The error this one explains. */
  cause?: unknown;
  /** The tool the error is about, when there is one. */
  tool?: string | undefined;
}

const BRAND = Symbol.for('toolwright.ToolkitError');

/**
 * The one error class of toolwright. `code` says what went wrong; the message names the
 * class member, the parameter and the fix.
 *
 * @example
 * try { toolkit.registerTool(MyService); }
 * catch (e) { if (ToolkitError.is(e, 'MISSING_NAME')) console.error(e.message); }
 */
export class ToolkitError extends Error {
  /** What went wrong, as a stable string. */
  readonly code: ToolkitErrorCode;
  /** The tool the error is about, when there is one. */
  readonly tool?: string;
  /** @internal */
  readonly [BRAND] = true;

  constructor(code: ToolkitErrorCode, message: string, options: ToolkitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolkitError';
    this.code = code;
    if (options.tool !== undefined) this.tool = options.tool;
  }

  /** True when `value` is a ToolkitError (from any copy of toolwright), optionally of `code`. */
  static is(value: unknown, code?: ToolkitErrorCode): value is ToolkitError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[BRAND] === true &&
      (code === undefined || (value as ToolkitError).code === code)
    );
  }
}

/**
 * Turns anything thrown (an Error, a string, `undefined`, an object) into a readable message.
 * The JSON of a non-Error value is cut at 500 characters; `scrub` (a redaction) is applied to the
 * text before the cut, so the cut never leaves part of a secret behind.
 *
 * @example
 * describeThrown({ status: 401 }); // 'a non-Error value: {"status":401}'
 * describeThrown(error, createRedactor({ secrets: [apiKey] }).text);
 */
export function describeThrown(value: unknown, scrub?: (text: string) => string): string {
  const clean = scrub ?? ((text: string) => text);
  if (value instanceof Error) return clean(value.message || value.name);
  if (typeof value === 'string') return clean(value);
  if (value === undefined || value === null) return `a non-Error value (${String(value)})`;
  try {
    const raw = JSON.stringify(value);
    if (raw !== undefined) {
      const json = clean(raw);
      return `a non-Error value: ${json.length > 500 ? `${json.slice(0, 500)}…` : json}`;
    }
  } catch {
    // fall through: circular or hostile objects are described by type
  }
  return `a non-Error value of type ${typeof value}`;
}
