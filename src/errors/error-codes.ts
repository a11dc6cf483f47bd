/**
 * Every error code toolwright produces, each with what it means; {@link ToolkitErrorCode} is the
 * union of the names. A code's type says where it reaches you:
 *
 * - `'thrown'`: thrown as a {@link ToolkitError} at definition time or on misuse (`registerTool`,
 *   `registration().apply()`, constructors, `activateSkill`…); the message names `Class.method`,
 *   the parameter and the fix.
 * - `'result'`: at call time, never thrown: `callTool` resolves to a `ToolResult` with
 *   `isError: true` and `error.code`, and the message tells the model what to do.
 * - `'rejection'`: reading a resource, getting a prompt or completing an argument: the Promise
 *   rejects with a `ToolkitError` (over MCP, a JSON-RPC error).
 *
 * The documentation's error reference is generated from this interface.
 *
 * @example
 * const where: ToolkitErrorCodes['TIMEOUT'] = 'result';
 */
export interface ToolkitErrorCodes {
  // definition time: registering tools, groups, skills and manifests
  /** `Reflect.getMetadata` is not available: `import 'reflect-metadata'` once, before toolwright. */
  readonly REFLECT_METADATA_MISSING: 'thrown';
  /**
   * No `design:paramtypes` (tsconfig flags off, or a compiler that emits none), no manifest, and a
   * parameter without `@ToolParam({ type })` or `@InjectContext`.
   */
  readonly DECORATOR_METADATA_MISSING: 'thrown';
  /** A parameter without a name (no `@ToolParam({ name })`, no manifest). */
  readonly MISSING_NAME: 'thrown';
  /** A tool without a description (no `@Tool({ description })`, no JSDoc in the manifest). */
  readonly MISSING_DESCRIPTION: 'thrown';
  /** A tool name outside `^[a-zA-Z0-9_-]{1,64}$`, or invalid for a provider. */
  readonly INVALID_NAME: 'thrown';
  /** A tool name registered twice (the message names both owners). */
  readonly DUPLICATE_TOOL: 'thrown';
  /** A resource URI, template or name registered twice (the message names both owners). */
  readonly DUPLICATE_RESOURCE: 'thrown';
  /** A prompt name registered twice (the message names both owners). */
  readonly DUPLICATE_PROMPT: 'thrown';
  /**
   * A parameter with neither `@ToolParam` nor an injectable type; or the manifest names a class
   * (DTO, context) it cannot deliver: a JSON manifest without reflection, a class no module
   * exports, a stale manifest module.
   */
  readonly UNRESOLVABLE_PARAMETER: 'thrown';
  /**
   * A type reflection cannot see, an array without item type, a preset naming no parameter, a
   * request-scoped Nest provider with `@Tool` methods…
   */
  readonly INVALID_DEFINITION: 'thrown';
  /** Toggling a group that does not exist. */
  readonly UNKNOWN_GROUP: 'thrown';
  /** Toggling a skill that does not exist. */
  readonly UNKNOWN_SKILL: 'thrown';
  /** A skill's `requiredTools` are not registered. */
  readonly MISSING_REQUIRED_TOOLS: 'thrown';
  /** The manifest no longer matches the class. */
  readonly MANIFEST_MISMATCH: 'thrown';
  /** The container cannot build the service. */
  readonly SERVICE_RESOLUTION_FAILED: 'thrown';
  /**
   * `ToolExecutionContext.builder().register(value)` with a value that is not an object (use
   * `register(key, value)`).
   */
  readonly INVALID_CONTEXT: 'thrown';
  /**
   * A subpath entry point's optional peer dependency is not installed (the message names the
   * install command).
   */
  readonly PEER_DEPENDENCY_MISSING: 'thrown';
  // misuse at run time: a bad option value, a bad restore() input, an unknown provider, a file that is no manifest
  /**
   * A bad option value given to a constructor or factory: `ApprovalManager` limits and `minRisk`, a
   * repeated `generateId()` id, `createTruncationHook`'s `maxResultChars`, MCP HTTP `maxSessions` /
   * `maxSessionsPerPrincipal` / `sessionIdleTimeoutMs` / `bodyTimeoutMs`, MCP `maxConcurrentCalls`,
   * `toolwrightModule` / `ToolwrightModule.forRoot` options. Thrown to a tool: a log level that is
   * none of `LOG_LEVELS`, a `ClientRequests` request MCP cannot carry (no messages, a nested form
   * field).
   */
  readonly INVALID_OPTIONS: 'thrown';
  /** `ApprovalManager.restore()` given text that is not JSON or not a serialised state. */
  readonly INVALID_SNAPSHOT: 'thrown';
  /** `toProviderDefs` / `lowerToolSchemas` with a provider name lowering does not know. */
  readonly UNKNOWN_PROVIDER: 'thrown';
  /**
   * `loadManifest` / `parseManifest`: the file cannot be read, is not JSON, or is not a
   * `toolwright-schema` manifest.
   */
  readonly INVALID_MANIFEST: 'thrown';
  // the build-time generator (toolwright-schema, generateManifest)
  /** `toolwright-schema` / `generateManifest`: bad arguments (the CLI exits with 2). */
  readonly CLI_USAGE: 'thrown';
  /** `toolwright-schema` / `generateManifest`: a path or glob naming no TypeScript source. */
  readonly NO_MATCHING_FILES: 'thrown';
  /** `toolwright-schema` / `generateManifest`: a tsconfig that cannot be read. */
  readonly INVALID_TSCONFIG: 'thrown';
  /** `importMcpTools` hit `maxPages`, `maxTools` or `timeoutMs` (nothing was imported). */
  readonly IMPORT_LIMIT_EXCEEDED: 'thrown';
  // call time: the call itself
  /** The tool name is unknown; the model is told close names and the available tools. */
  readonly UNKNOWN_TOOL: 'result';
  // reading a resource, getting a prompt
  /**
   * No resource of the view has that URI (or matches it), also when it exists in a group the view
   * has off.
   */
  readonly UNKNOWN_RESOURCE: 'rejection';
  /** No prompt of the view has that name, also when it exists in a group the view has off. */
  readonly UNKNOWN_PROMPT: 'rejection';
  // call time: the call itself, continued
  /** The tool's group is off (or a skill scopes it out). */
  readonly TOOL_DISABLED: 'result';
  /**
   * The caller's principal lacks a scope the tool requires, or the toolkit's `authorize` rule
   * refused it.
   */
  readonly FORBIDDEN: 'result';
  /** The arguments are not a JSON object; the model is told the parser's message. */
  readonly MALFORMED_ARGUMENTS: 'result';
  /**
   * Every failing field and why: missing, wrong type, out of range, unknown or hidden parameter…
   */
  readonly INVALID_ARGUMENTS: 'result' | 'rejection';
  /** A required context object was not provided. */
  readonly CONTEXT_MISSING: 'result' | 'rejection';
  /** The tool threw; the model is told what (any value, not only Errors). */
  readonly EXECUTION_FAILED: 'result' | 'rejection';
  /** An `AsyncTool` is still completing an earlier call with the same id in the background. */
  readonly DUPLICATE_CALL_ID: 'result';
  /** The call ran out of time (hooks and preset resolution included); the tool's `AbortSignal` fired. */
  readonly TIMEOUT: 'result' | 'rejection';
  /** The caller aborted; the tool's `AbortSignal` fired. */
  readonly ABORTED: 'result' | 'rejection';
  // call time: hooks (approval, guardrails) and providers
  /** A hook denied the call. */
  readonly DENIED: 'result';
  /** A hook threw. */
  readonly HOOK_FAILED: 'result';
  /** A skill workflow step is held for approval. */
  readonly APPROVAL_PENDING: 'result';
  /** A person rejected the held call. */
  readonly APPROVAL_REJECTED: 'result';
  /** Approving or rejecting an approval that is not pending (already decided, here or elsewhere). */
  readonly APPROVAL_NOT_PENDING: 'thrown';
  /** Approving a restored call without re-supplying its `context` (and `toolkit` or `view`). */
  readonly APPROVAL_CONTEXT_REQUIRED: 'thrown';
  /** Approving with a `context` or a view of another session than the requester's. */
  readonly APPROVAL_CONTEXT_CONFLICT: 'thrown';
  /** `remember` on a call without a session (or principal). */
  readonly APPROVAL_IDENTITY_MISSING: 'thrown';
  /**
   * The call needs approval but too many calls are already held (`maxPending`,
   * `maxPendingPerSession`).
   */
  readonly APPROVAL_LIMIT_EXCEEDED: 'result';
  /**
   * The `ApprovalDecisionStore` or the approval `store` failed: nothing was decided, the call stays
   * pending (a call that could not be held answers it and does not run).
   */
  readonly APPROVAL_STORE_FAILED: 'thrown';
  /**
   * With a `store`: the stored call is not the one held or shown (changed in the store); nothing
   * ran, nothing was decided.
   */
  readonly APPROVAL_CHANGED: 'thrown';
  /** The tool ran, but a guardrail withheld its result. */
  readonly RESULT_WITHHELD: 'result' | 'rejection';
  // a content part a tool returned (or a content helper was given) is malformed
  /**
   * A malformed content part: thrown by a content helper (`imageContent`, `contentResult`…) given
   * data that is not base64, a media type of the wrong family or annotations MCP refuses; in a
   * result when the tool ran but returned such a part (named by position and kind, e.g.
   * `part 2 (image): data is not base64: …`).
   */
  readonly INVALID_CONTENT: 'thrown' | 'result';
  /**
   * `OpenAIProvider` / `AnthropicProvider` / `GeminiProvider`: the vendor's API failed or sent a
   * reply of the wrong shape, or a message cannot be mapped to its format (a `tool` message without
   * `toolCallId`, an unknown role; Gemini: a `tool` message without a name whose call is unknown).
   */
  readonly PROVIDER_FAILED: 'thrown';
  // call time: a tool's requests to the client that called it (sampling, elicitation)
  /**
   * The tool asked the client (`ClientRequests`) and did not catch the error: the call has no
   * client (not over MCP, no `clientRequests` handler).
   */
  readonly CLIENT_UNAVAILABLE: 'result';
  /**
   * The tool asked the client and did not catch the error: the client did not declare `sampling`
   * or `elicitation`.
   */
  readonly CLIENT_CAPABILITY_MISSING: 'result';
  /**
   * The tool asked the client and did not catch the error: the client failed, timed out or
   * answered something invalid (never retried).
   */
  readonly CLIENT_REQUEST_FAILED: 'result';
  // runToolLoop refusing a call
  /** `runToolLoop` refused the call: `maxToolCalls` or the tool's `maxCallsPerTool` is used up. */
  readonly TOOL_BUDGET_EXCEEDED: 'result';
  /** `runToolLoop` refused the call: the same call was repeated more than `maxRepeatedCalls` times. */
  readonly REPEATED_CALL: 'result';
  // skills and sessions (thrown by activateSkill / session methods, or carried by results)
  /** A skill's `onActivate` / `onDeactivate` hook threw; in a result: an executable skill failed. */
  readonly SKILL_FAILED: 'thrown' | 'result';
  /** An executable skill went over its tool-call cap. */
  readonly SKILL_LIMIT_EXCEEDED: 'result';
  /**
   * The session is closed or expired: thrown when toggling its groups or skills; in a result or a
   * rejection when a call, a read or a prompt was made on it.
   */
  readonly SESSION_CLOSED: 'thrown' | 'result' | 'rejection';
  // queued tools (toolwright/bullmq)
  /**
   * The tool has a `@ToolParam({ preset: true })` parameter bound nowhere in this process and no
   * `queueTools` route takes the tool: bind it with `presetParameters`, or route the tool to the
   * workers (`toolwright/bullmq`) that bind it. Registering such a tool warns once
   * (`TOOLWRIGHT_PRESET_UNBOUND`).
   */
  readonly PRESET_UNBOUND: 'result';
  /**
   * A queued tool's Redis could not be reached within `connectTimeoutMs`; nothing was enqueued
   * (the message names the address and the error).
   */
  readonly QUEUE_UNAVAILABLE: 'result';
  /**
   * The worker running a queued call stopped mid-call and the tool is marked `idempotent: false`,
   * so it was not run again: it may or may not have taken effect.
   */
  readonly WORKER_LOST: 'result';
}

/**
 * Every error code toolwright produces: thrown {@link ToolkitError}s carry one in `code`, failed
 * call results in `error.code`. {@link ToolkitErrorCodes} explains each.
 *
 * @example
 * const retryable = (code: ToolkitErrorCode): boolean => code === 'TIMEOUT' || code === 'QUEUE_UNAVAILABLE';
 */
export type ToolkitErrorCode = keyof ToolkitErrorCodes;
