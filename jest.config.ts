/** @jest-config-loader ts-node
 * @jest-config-loader-options {"transpileOnly": true, "compilerOptions": {"module": "commonjs", "moduleResolution": "node10"}}
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from 'jest';

type Project = Exclude<NonNullable<Config['projects']>[number], string>;

/**
 * The `integration` project: the suites that need the machine's Redis or PostgreSQL, or take
 * seconds each because they start real child processes or HTTP servers, run the TypeScript
 * compiler over files on disk, or run thousands of generated cases. Every other
 * `test/**\/*.test.ts` is the `unit` project. `npm test` runs both; `npx jest --selectProjects unit`
 * runs the quick part, which needs no service, and which CI also runs on Node 22 and 24: a suite
 * whose subject differs between Node versions stays there (the AI SDK 7 suites, which run from
 * Node 22 on; the MCP SDK 2 client loaded from CommonJS in a child process). Listed by path rather
 * than by a file-name suffix because SECURITY.md links the test/security files by name.
 */
const INTEGRATION: readonly string[] = [
  // real child processes
  'approval-stores/faults.test.ts',
  'architecture/light-install.test.ts',
  'executor/timeouts-soak.test.ts',
  'loop/npm-start.test.ts',
  'mcp/mcp-stdio.test.ts',
  'mcp/sample-server.test.ts',
  'security/user-callbacks/throwing-error-handler.test.ts',
  'mcp/modern/fleet.test.ts',
  'security/mcp-http/call-concurrency.test.ts',
  'security/user-callbacks/throwing-callbacks.test.ts',
  'testing/fuzz-tool.test.ts',
  'mcp/import-content.test.ts',
  'mcp/reference-servers.test.ts',
  'mcp/import/sdk2-reference-servers.test.ts',
  'mcp/import/sdk2-tasks-extension.test.ts',
  'mcp/modern/stdio-attacker.test.ts',
  'mcp/modern/stdio-clients.test.ts',
  // the machine's Redis and PostgreSQL (some with real child processes too)
  'adapters/framework-approvals-replicas.test.ts',
  'approval-stores/shared-store.test.ts',
  'approval-stores/store-changes.test.ts',
  'bullmq/attack-faults.test.ts',
  'bullmq/attack-forged-events.test.ts',
  'bullmq/attack-forged-jobs.test.ts',
  'bullmq/attack-lost-events.test.ts',
  'bullmq/attack-redis-loss.test.ts',
  'bullmq/attack-secrets.test.ts',
  'bullmq/authorization.test.ts',
  'bullmq/failed-jobs.test.ts',
  'bullmq/faults.test.ts',
  'bullmq/ioredis-version.test.ts',
  'bullmq/mcp-queued.test.ts',
  'bullmq/queue-tools.test.ts',
  'bullmq/sample.test.ts',
  'mcp/modern/tasks-extension.test.ts',
  'redis/redis-mcp-event-bus.test.ts',
  'redis/redis-mcp-state-store.test.ts',
  // vitepress builds and Chromium
  'docs/check-site.test.ts',
  // real MCP HTTP servers on 127.0.0.1
  'mcp/mcp-http.test.ts',
  'mcp/mcp-catalog-http.test.ts',
  'mcp/sdk2-interop.test.ts',
  'mcp/modern/modern-tools.test.ts',
  'mcp/modern/modern-callers.test.ts',
  'mcp/modern/conversation-handles.test.ts',
  'mcp/modern/conversation-listen.test.ts',
  'mcp/modern/modern-guard.test.ts',
  'mcp/modern/modern-without-sdk2.test.ts',
  'mcp/modern/tasks-wire.test.ts',
  'mcp/modern/tasks-http.test.ts',
  'security/groups-are-the-permission-boundary/hidden-resources.test.ts',
  'security/bounded-growth/uri-template-traversal.test.ts',
  'security/mcp-http/auth.test.ts',
  'security/mcp-http/exposure-warning.test.ts',
  'security/mcp-http/origin.test.ts',
  'security/mcp-http/rebinding.test.ts',
  'security/mcp-http/session-cap.test.ts',
  'security/mcp-http/session-slots.test.ts',
  'security/mcp-http/slow-reader.test.ts',
  // the TypeScript compiler over files on disk
  'build/cli.test.ts',
  'build/cli-check.test.ts',
  'build/definition-errors.test.ts',
  'build/generate-manifest.test.ts',
  'build/sample-manifest.test.ts',
  'build/manifest-module.test.ts',
  'build/project-typescript7.test.ts',
  'toolchains/no-metadata.test.ts',
  'toolchains/matrix.test.ts',
  'build/cli-watch.test.ts',
  'toolchains/esm-project.test.ts',
  'readme/snippets.test.ts',
  'decorators/import-type-erased.test.ts',
  // thousands of generated cases: fuzzing, property tests, soaks
  'executor/fuzz.test.ts',
  // the TypeScript compiler over the public API with a user's compiler options
  'types/exact-optional.test.ts',
  'types/ai-sdk-v7-types.test.ts',
  'security/secrets-never-leave/property-based.test.ts',
  'toolkit/sessions/sessions-soak.test.ts',
];

const missing = INTEGRATION.filter((file) => !existsSync(path.join(__dirname, 'test', file)));
if (missing.length > 0) throw new Error(`jest.config.ts: no such integration test: ${missing.join(', ')}`);

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Jest runs the TypeScript sources through swc with the options of `.swcrc` (legacy decorators with
 * metadata, CommonJS); inversify, NestJS 12 and AI SDK 7 (`ai-v7`, with the `@ai-sdk/*` packages
 * nested in it and `@workflow/serde`) and arktype (with `@ark/*` and arkregex), all ESM-only, are transformed to CommonJS too.
 */
/** Module mappings every project keeps (a project adds its own before them). */
const MODULES: Record<string, string> = {
  // AI SDK 7 requires a zod locale by its ESM file name; zod ships the CommonJS twin beside it
  '^zod/v4/locales/(.+)\\.js$': 'zod/v4/locales/$1.cjs',
  // examples/demo uses examples/weather-agent's sources: the package by its name, modules as `./x.js`
  '^toolwright$': '<rootDir>/src/index.ts',
  '^(\\.{1,2}/.*)\\.js$': '$1',
};

const shared: Project = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.(t|j)s$': '@swc/jest' },
  transformIgnorePatterns: ['^(?!.*/node_modules/ai-v7/).*/node_modules/(?!(inversify|@inversifyjs|@nestjs|@workflow/serde|arktype|arkregex|@ark)/)'],
  moduleNameMapper: MODULES,
};

/**
 * The `nest11` project: the toolwright/nestjs suite again, with every `@nestjs/*` import (the
 * suite's, toolwright's and Nest's own) mapped to NestJS 11, which test/nestjs/nest11 installs
 * (npm cannot install Nest 11 beside the project's Nest 12 under an alias: its peers name
 * `@nestjs/common` itself).
 */
const NEST11_TEST = 'nestjs/nest11.test.ts';

/**
 * The `mcp-sdk-1.29` project: the MCP suites again with every `@modelcontextprotocol/sdk` import
 * (the suites' and toolwright's) mapped to the lowest 1.x minor of toolwright's peer range, which
 * package.json installs under the alias `mcp-sdk-lowest` (the SDK's own imports are relative).
 * 1.25 to 1.28 type-check and run too, but drop fields of newer content (a resource link's `size`).
 */
const MCP_SDK_LOWEST: Project = {
  ...shared,
  displayName: 'mcp-sdk-1.29',
  testMatch: ['<rootDir>/test/mcp/**/*.test.ts'],
  moduleNameMapper: { '^@modelcontextprotocol/sdk/(.*)$': 'mcp-sdk-lowest/$1', ...MODULES },
  globals: { MCP_SDK_VERSION: '1.29.0' },
};

/**
 * The `ioredis-6` project: the toolwright/bullmq and toolwright/redis suites and the shared approval
 * store suites again (but the sample and the approval fault tests, which run in child processes)
 * with every `ioredis` import (the suites', toolwright's and BullMQ's) mapped to ioredis 6, which
 * package.json installs under the alias `ioredis-v6`; the project's own ioredis is 5, the lowest
 * major of the peer range.
 */
const IOREDIS_6: Project = {
  ...shared,
  displayName: 'ioredis-6',
  testMatch: ['<rootDir>/test/bullmq/**/*.test.ts', '<rootDir>/test/redis/**/*.test.ts', '<rootDir>/test/approval-stores/shared-store.test.ts', '<rootDir>/test/approval-stores/store-changes.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/bullmq/sample\\.test\\.ts$'],
  moduleNameMapper: { '^ioredis(/.*)?$': 'ioredis-v6$1', ...MODULES },
  globals: { IOREDIS_MAJOR: 6 },
};

const config: Config = {
  // Jest's default (one worker less than the cores) runs everything in band on a 2-core machine.
  maxWorkers: '100%',
  // Jest gives a worker 500 ms to exit after the run, and a worker exits only after V8 has
  // unmapped its whole heap. Each test file loads its own copies of the SDKs (and some the
  // TypeScript compiler), so a worker that ran ~50 files ends with 0.5-1 GB of uncollected
  // garbage; unmapping that takes 0.2-0.6 s on a loaded 2-core machine, and Jest then kills it
  // and prints "A worker process has failed to exit gracefully" although nothing is left open
  // (no handle, timer or child process is alive at that point). A worker whose heap exceeds
  // this after a file is replaced by a fresh one (about 6 times a run), so it exits in time.
  workerIdleMemoryLimit: '256MB',
  // generous: the soaks and child-process suites take seconds, several times that on a loaded machine
  testTimeout: 60_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...[...INTEGRATION, NEST11_TEST].map((file) => `<rootDir>/test/${escape(file)}$`)],
    },
    {
      ...shared,
      displayName: 'nest11',
      testMatch: [`<rootDir>/test/${NEST11_TEST}`],
      moduleNameMapper: { '^@nestjs/(common|core|platform-express)(/.*)?$': '<rootDir>/test/nestjs/nest11/node_modules/@nestjs/$1$2', ...MODULES },
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: INTEGRATION.map((file) => `<rootDir>/test/${file}`),
    },
    MCP_SDK_LOWEST,
    IOREDIS_6,
  ],
};

export default config;
