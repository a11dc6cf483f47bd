import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Set by the `mcp-sdk-1.29` Jest project (see jest.config.ts); undeclared elsewhere. */
declare const MCP_SDK_VERSION: string | undefined;

/** The version of the `@modelcontextprotocol/sdk` that `require` loads in this run. */
function loadedSdkVersion(): string {
  const resolved = require.resolve('@modelcontextprotocol/sdk/server/index.js');
  for (let dir = path.dirname(resolved); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    const pkg = (() => {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      } catch {
        return undefined; // no package.json in this folder
      }
    })();
    if (pkg?.name === '@modelcontextprotocol/sdk' && pkg.version) return pkg.version;
  }
  throw new Error(`no package.json of @modelcontextprotocol/sdk above ${resolved}`);
}

// The MCP suites run twice: with the SDK that package.json installs (the newest 1.x) and, in the
// `mcp-sdk-1.29` project, with the lowest minor of the peer range. This keeps that mapping honest.
test('the MCP suites load the @modelcontextprotocol/sdk 1.x their Jest project names', () => {
  const version = loadedSdkVersion();
  expect(version).toMatch(/^1\.\d+\.\d+$/);
  const installed = (JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { devDependencies: Record<string, string> })
    .devDependencies['@modelcontextprotocol/sdk'];
  if (typeof MCP_SDK_VERSION === 'string') expect(version).toBe(MCP_SDK_VERSION);
  else expect(numeric(version)).toBeGreaterThanOrEqual(numeric(installed!.replace(/^\^/, '')));
});

/** `1.32.2` → 1_032_002, for comparing versions of one major. */
function numeric(version: string): number {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return major * 1_000_000 + minor * 1_000 + patch;
}
