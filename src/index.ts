/**
 * The root entry point, `toolwright`: a list of folder faces in sections. Each folder's `index.ts`
 * names its public names; subpath entry points (`toolwright/mcp`, `toolwright/openai`, …) have their own.
 * A face of types only is re-exported with `export type *`, so that `require('toolwright')` does not load it.
 */
import 'reflect-metadata';

// Shared vocabulary: tool calls and results, JSON Schema, content, the execution context, client requests
export * from './common';

// Defining tools: decorators and their options, presets from the container
export * from './decorators';
export type * from './metadata';
export * from './di';

// The toolkit: registration, views, sessions, groups, skills, prompts and resources
export * from './toolkit';
export type * from './resources';

// Running calls: authorization, hooks, events, presets, call options
export * from './executor';

// Approval and hooks: approval, guardrails, truncation, redaction
export * from './pipeline';

// Models and the loop: the tool loop, schemas lowered per provider, build-time manifests loaded
export * from './loop';
export * from './schema';

// Errors
export { ToolkitError } from './errors';
export type { ToolkitErrorCode, ToolkitErrorCodes, ToolkitErrorOptions } from './errors';
