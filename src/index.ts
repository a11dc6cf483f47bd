import 'reflect-metadata';

// The root entry point is a list of folder faces, one section per folder from the lowest layer up;
// each folder's index.ts names what the folder publishes (test/architecture/root-faces.test.ts keeps
// it so). The subpath entry points (toolwright/mcp, toolwright/openai, …) are faces of their folders.

// errors: ToolkitError and its codes
export * from './errors';

// model: the vocabulary (calls, results, content, context, principals, JSON Schema, manifests,
// model messages, client requests, logging)
export * from './model';

// metadata: the options the decorators take and the types they name
export type * from './metadata';

// di: the container a toolkit resolves services from, presets read from it
export * from './di';

// decorators: tools, parameters, services, prompts and resources
export * from './decorators';

// schema: build-time manifests loaded, canonical schemas lowered per provider
export * from './schema';

// executor: authorization, hooks, events, presets, call options, asynchronous completion
export * from './executor';

// resources: the catalog of prompts and resources beside the tools
export type * from './resources';

// toolkit: registration, views, sessions, groups, skills and their meta tools, the DI module
export * from './toolkit';

// approval: human approval of calls, and the contract of the stores that share it
export * from './approval';

// hooks: the built-in guardrail, truncation and redaction hooks
export * from './hooks';

// loop: the tool loop over any model provider, and a scripted provider
export * from './loop';
