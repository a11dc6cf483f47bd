import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../support/child-process';
import { compileSources, makeProject, runNode } from '../support/compiled-project';

/**
 * toolwright-schema in a project whose own `typescript` is 7 (the registry's `latest`, which exports
 * no compiler API): the compiled generator must take the TypeScript that typescript-json-schema
 * depends on (5.9), the copy that checks its Program, not the project's. The project is real: the
 * TypeScript 7 release from the registry (installed once into .cache/typescript7) as its
 * `typescript`, and typescript-json-schema with its own 5.9 beside it, as npm lays them out.
 */

const TYPESCRIPT_7 = '7.0.2';
const { cachedPackage } = require(path.join(ROOT, 'scripts/cached-package.js')) as {
  cachedPackage: (name: string, version: string, folder: string) => string;
};

const STUB = `
export function Tool(_options?: { name?: string; description?: string }): MethodDecorator { return () => undefined; }
`;

const GREETER = `
import { Tool } from './stub';

export class Greeter {
  /**
   * Greet someone.
   * @param name who to greet
   * @param style how
   */
  @Tool()
  greet(name: string, style: 'formal' | 'casual' = 'casual'): string {
    return style === 'formal' ? 'Good day, ' + name : 'hi ' + name;
  }
}
`;

/** What toolwright-schema wrote for `Greeter.greet`: its parameters' names and schemas. */
function greetParams(dir: string): unknown {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'tools.manifest.json'), 'utf8')) as {
    classes: Record<string, { methods: Record<string, { params: unknown }> }>;
  };
  return manifest.classes.Greeter?.methods.greet?.params;
}

const EXPECTED_PARAMS = [
  { index: 0, kind: 'model', name: 'name', description: 'who to greet', optional: false, schema: { type: 'string', description: 'who to greet' } },
  {
    index: 1,
    kind: 'model',
    name: 'style',
    description: 'how',
    optional: true,
    schema: { type: 'string', enum: ['casual', 'formal'], default: 'casual', description: 'how' },
  },
];

describe('toolwright-schema in a project whose typescript is 7', () => {
  let work: string;
  let project: string;
  let typescript7: string;

  beforeAll(() => {
    typescript7 = cachedPackage('typescript', TYPESCRIPT_7, 'typescript7');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-ts7-'));
    const dist = path.join(work, 'dist');
    compileSources(dist);
    project = makeProject(path.join(work, 'project'), dist, ['typescript']);
    fs.symlinkSync(typescript7, path.join(project, 'node_modules', 'typescript'));
    fs.writeFileSync(path.join(project, 'stub.ts'), STUB);
    fs.writeFileSync(path.join(project, 'greeter.ts'), GREETER);
  }, 120_000);

  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("the project's own typescript is 7, with no compiler API", async () => {
    const probe = await runNode(project, ['-e', "const ts = require('typescript'); process.stdout.write(ts.version + ' ' + typeof ts.createProgram)"]);
    expect(probe.stdout).toBe(`${TYPESCRIPT_7} undefined`);
  });

  it('generates the manifest with its default compiler options', async () => {
    const run = await runNode(project, ['dist/build/toolwright-schema-cli.js', 'greeter.ts', '-o', 'tools.manifest.json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(greetParams(project)).toEqual(EXPECTED_PARAMS);
  });

  it("generates it with the tsconfig TypeScript 7's `tsc --init` writes, plus the decorator flags", async () => {
    const dir = fs.mkdtempSync(path.join(project, 'init-'));
    const init = await runNode(dir, [path.join(typescript7, 'bin', 'tsc'), '--init']);
    expect(init.code).toBe(0);
    const tsconfig = path.join(dir, 'tsconfig.json');
    const text = fs.readFileSync(tsconfig, 'utf8').replace('"compilerOptions": {', '"compilerOptions": {\n    "experimentalDecorators": true,\n    "emitDecoratorMetadata": true,');
    fs.writeFileSync(tsconfig, text);
    fs.copyFileSync(path.join(project, 'stub.ts'), path.join(dir, 'stub.ts'));
    fs.copyFileSync(path.join(project, 'greeter.ts'), path.join(dir, 'greeter.ts'));
    const run = await runNode(dir, [path.join(project, 'dist/build/toolwright-schema-cli.js'), '-p', 'tsconfig.json', '-o', 'tools.manifest.json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(greetParams(dir)).toEqual(EXPECTED_PARAMS);
  });

  it('names the dev dependency and its install command in a project without typescript-json-schema', async () => {
    const bare = makeProject(path.join(work, 'bare'), path.join(work, 'dist'), ['typescript-json-schema']);
    fs.writeFileSync(path.join(bare, 'stub.ts'), STUB);
    fs.writeFileSync(path.join(bare, 'greeter.ts'), GREETER);
    const run = await runNode(bare, ['dist/build/toolwright-schema-cli.js', 'greeter.ts', '-o', 'tools.manifest.json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "toolwright-schema: toolwright/build needs typescript-json-schema, an optional peer dependency that is not installed: run 'npm i -D typescript typescript-json-schema'.\n",
    );
    expect(fs.existsSync(path.join(bare, 'tools.manifest.json'))).toBe(false);
  });

  it('names the fix when typescript-json-schema itself resolves a typescript without a compiler API', async () => {
    // an install that forces one typescript on every package (npm `overrides`): typescript-json-schema sees 7 too
    const forced = makeProject(path.join(work, 'forced'), path.join(work, 'dist'), ['typescript', 'typescript-json-schema']);
    fs.symlinkSync(typescript7, path.join(forced, 'node_modules', 'typescript'));
    fs.cpSync(path.join(ROOT, 'node_modules', 'typescript-json-schema'), path.join(forced, 'node_modules', 'typescript-json-schema'), { recursive: true });
    fs.writeFileSync(path.join(forced, 'stub.ts'), STUB);
    fs.writeFileSync(path.join(forced, 'greeter.ts'), GREETER);
    const run = await runNode(forced, ['dist/build/toolwright-schema-cli.js', 'greeter.ts', '-o', 'tools.manifest.json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^toolwright-schema: toolwright\/build needs the TypeScript compiler API of the typescript that typescript-json-schema depends on \(~5\.9\); \S+ \(typescript 7\.0\.2\) has none: reinstall typescript-json-schema so that npm gives it its own typescript\.\n$/);
    expect(fs.existsSync(path.join(forced, 'tools.manifest.json'))).toBe(false);
  });
});
