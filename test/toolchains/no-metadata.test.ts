import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';
import { generateManifest, serializeManifest, serializeManifestModule } from '../../src/build';
import type { ToolManifest } from '../../src';
import { ROOT } from '../support/child-process';
import type { ShapeReport } from './fixtures/shapes/main';
import type { ShopReport } from './fixtures/shop/main';
import { bundleAndRun as bundle, expectValidated, runTsx } from './toolchain-runs';

/**
 * SPEC §9, toolchains without decorator metadata: the same shop services, compiled by esbuild,
 * tsx and the TypeScript compiler, run in real child processes. With the manifest module (or
 * explicit decorators) every toolchain validates DTOs with class-validator, passes instances and
 * injects contexts — the same report as tsc; where a piece is missing, registration fails and
 * names it.
 */
const FIXTURE = path.join(ROOT, 'test/toolchains/fixtures/shop');
let dir: string;

// The TypeScript compiler in beforeAll and each test's child processes take 1-8 s on an idle
// machine, several times that on two loaded cores: bounds for those, not for the behaviour.
jest.setTimeout(180_000);
let manifest: ToolManifest;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-toolchains-'));
  manifest = generateManifest({ cwd: ROOT, files: ['test/toolchains/fixtures/shop/*.ts'] });
  const moduleFile = path.join(dir, 'tools.manifest.ts');
  fs.writeFileSync(moduleFile, serializeManifestModule(manifest, { outFile: moduleFile, cwd: ROOT }));
  fs.writeFileSync(path.join(dir, 'tools.manifest.json'), serializeManifest(manifest));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type ManifestKind = 'module' | 'json' | 'none';

/** An entry file that runs one shop service with one kind of manifest and prints the report. */
function writeEntry(name: string, service: 'manifest' | 'explicit', kind: ManifestKind): string {
  const file = path.join(dir, `${name}.ts`);
  const importManifest =
    kind === 'module'
      ? "import { manifest } from './tools.manifest';\n"
      : kind === 'json'
        ? "import { readFileSync } from 'node:fs';\nconst manifest = JSON.parse(readFileSync(__dirname + '/tools.manifest.json', 'utf8'));\n"
        : 'const manifest = undefined;\n';
  const main = path.relative(dir, path.join(FIXTURE, 'main')).split(path.sep).join('/');
  fs.writeFileSync(
    file,
    `${importManifest}import { runShop } from '${main}';\n` +
      `runShop('${service}', manifest).then((report) => console.log(JSON.stringify(report)));\n`,
  );
  return file;
}

/** Bundles and runs an entry; a shop report unless said otherwise. */
function bundleAndRun<Report = ShopReport>(entry: string, compiler: 'esbuild' | 'tsc'): Promise<Report> {
  return bundle<Report>(entry, compiler);
}

describe('toolchains without decorator metadata', () => {
  it('esbuild + the manifest module: DTOs validated by class-validator and passed as instances, Date and context injected — as under tsc', async () => {
    const [esbuilt, tscBuilt] = await Promise.all([
      bundleAndRun(writeEntry('module-esbuild', 'manifest', 'module'), 'esbuild'),
      bundleAndRun(writeEntry('module-tsc', 'manifest', 'module'), 'tsc'),
    ]);
    expectValidated(esbuilt);
    expect(JSON.parse(esbuilt.calls.valid!.text)).toMatchObject({ whenIsDate: true });
    expect(esbuilt).toEqual(tscBuilt);
  });

  it('tsx + the manifest module gives the same report as tsc', async () => {
    const [viaTsx, tscBuilt] = await Promise.all([
      runTsx<ShopReport>(writeEntry('module-tsx', 'manifest', 'module')),
      bundleAndRun(writeEntry('module-tsc-2', 'manifest', 'module'), 'tsc'),
    ]);
    expectValidated(viaTsx);
    expect(viaTsx).toEqual(tscBuilt);
  });

  it('without a manifest, explicit decorators (type thunks, @InjectContext with a class or a token) are enough — as under tsc', async () => {
    const [esbuilt, tscBuilt] = await Promise.all([
      bundleAndRun(writeEntry('explicit-esbuild', 'explicit', 'none'), 'esbuild'),
      bundleAndRun(writeEntry('explicit-tsc', 'explicit', 'none'), 'tsc'),
    ]);
    expect(esbuilt.registration).toBe('ok');
    expect(JSON.parse(esbuilt.calls.valid!.text)).toMatchObject({ orderIsInstance: true, linesAreInstances: true, user: 'u-7', tenant: 'acme' });
    expect(esbuilt.calls.classValidatorOnly?.text).toContain('sku must match /^[a-z]$/i regular expression');
    expect(esbuilt).toEqual(tscBuilt);
  });

  it('never silently weaker: a JSON manifest (no classes) fails registration naming the class and both fixes — under tsc too, for an array of DTOs', async () => {
    const [report, tscReport] = await Promise.all([
      bundleAndRun(writeEntry('json-esbuild', 'manifest', 'json'), 'esbuild'),
      bundleAndRun(writeEntry('json-tsc', 'manifest', 'json'), 'tsc'),
    ]);
    // reflection sees `Array` for `lines: LineDto[]`: the items would be checked by the schema alone, without class-validator's rules
    expect(tscReport.calls).toEqual({});
    expect(tscReport.registration).toMatch(/^UNRESOLVABLE_PARAMETER: ShopService\.place parameter 'lines' \(#2\): the manifest says it is an array of DTO class LineDto/);
    expect(tscReport.registration).toContain('@ToolParam({ type: () => [LineDto] })');
    expect(report.calls).toEqual({});
    expect(report.registration).toMatch(/^UNRESOLVABLE_PARAMETER: ShopService\.place parameter 'order' \(#0\): the manifest says it is DTO class OrderDto/);
    expect(report.registration).toContain('a JSON manifest cannot carry classes');
    expect(report.registration).toContain('-o tools.manifest.ts');
    expect(report.registration).toContain('@ToolParam({ type: () => OrderDto })');
  });

  it('no manifest and undecorated parameters under esbuild: DECORATOR_METADATA_MISSING naming the parameter and every fix', async () => {
    const report = await bundleAndRun(writeEntry('none-esbuild', 'manifest', 'none'), 'esbuild');
    expect(report.registration).toMatch(/^DECORATOR_METADATA_MISSING: ShopService\.place: no design:paramtypes metadata \(esbuild, tsx and vitest on Vite 7 or older emit none;/);
    expect(report.registration).toContain('  - parameter #3 has no @ToolParam and no @InjectContext: mark a context object @InjectContext(TheClass)');
    expect(report.registration).toContain('emitDecoratorMetadata');
    expect(report.registration).toContain('-o tools.manifest.ts');
    expect(report.registration).toContain('@InjectContext(TheClass)');
  });
});

/**
 * Every way a user may declare a DTO parameter (fixtures/shapes): optional, nullable, defaulted,
 * `Array<T>`, `readonly T[]`, rules through a base class or a mixin, re-exports, `import type`,
 * namespace and default imports, a type alias, a generic class, a nested DTO, a schema fragment;
 * a class that is not exported, has no class-validator rule or no `@ToolParam`; and classes
 * inside unions, intersections and generic types. Each toolchain either validates with
 * class-validator and passes an instance, or refuses (the generator or the registration) — never
 * a plain object checked by its JSON Schema alone.
 */
describe('every way to declare a DTO parameter', () => {
  const VALIDATED: Readonly<Record<string, string>> = {
    Optional: 'OrderDto',
    Nullable: 'OrderDto',
    Defaulted: 'OrderDto',
    GenericArray: '[OrderDto]',
    ReadonlyItems: '[OrderDto]',
    Mixin: 'MixinDto',
    Subclass: 'SubDto',
    ViaIndexFile: 'OrderDto',
    RenamedExport: 'OrderDto',
    TypeOnlyImport: 'OrderDto',
    NamespaceImport: 'OrderDto',
    DefaultImport: 'DefaultDto',
    TypeAlias: 'OrderDto',
    Generic: 'PageDto',
    Nested: 'WrapperDto>OrderDto',
    SchemaFragment: 'OrderDto',
  };
  /** Validated where reflection sees it (tsc, Jest); the manifest module cannot import it. */
  const NOT_EXPORTED = { NotExported: 'LocalDto' };
  const REFUSED_BY_GENERATOR = ['UnionOfDtos', 'UnionWithString', 'Intersection', 'PartialOf', 'RecordOf', 'TupleOf'];
  const problems: string[] = [];
  let moduleFile: string;

  beforeAll(() => {
    const shapes = generateManifest({ cwd: ROOT, files: ['test/toolchains/fixtures/shapes/*.ts'], onProblem: (problem) => problems.push(problem) });
    moduleFile = path.join(dir, 'shapes.manifest.ts');
    fs.writeFileSync(moduleFile, serializeManifestModule(shapes, { outFile: moduleFile, cwd: ROOT }));
    // what a project has: its packages where its modules resolve them (Jest takes no NODE_PATH)
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  });

  function writeShapesEntry(name: string): string {
    const file = path.join(dir, `${name}.ts`);
    const main = path.relative(dir, path.join(ROOT, 'test/toolchains/fixtures/shapes/main')).split(path.sep).join('/');
    fs.writeFileSync(
      file,
      `import { manifest } from './shapes.manifest';\nimport { runShapes } from '${main}';\n` +
        'runShapes(manifest).then((report) => console.log(JSON.stringify(report)));\n',
    );
    return file;
  }

  /** Never silently weaker: validated by class-validator and an instance, or a registration error. */
  function expectNeverWeaker(reports: Record<string, ShapeReport>): void {
    for (const [name, report] of Object.entries(reports)) {
      if (report.registration !== 'ok') continue;
      expect({ name, valid: report.valid, invalid: report.invalid?.isError }).toEqual({ name, valid: { ...VALIDATED, ...NOT_EXPORTED }[name], invalid: true });
      expect(report.invalid?.text).toMatch(/must match .* regular expression/);
    }
  }

  it('the generator refuses a class inside a union, an intersection or a generic type, naming the parameter and the fixes', () => {
    expect(problems).toHaveLength(REFUSED_BY_GENERATOR.length);
    for (const [i, name] of REFUSED_BY_GENERATOR.entries()) {
      expect(problems[i]).toContain(`${name}.run: the type of parameter x (`);
      expect(problems[i]).toContain('holds the class OrderDto inside a union, an intersection or a generic type');
      expect(problems[i]).toContain('@ToolParam({ type: () => TheDto })');
    }
  });

  it('esbuild with the manifest module: validated instances or registration errors, as under tsc and in Jest (swc)', async () => {
    const [esbuilt, tscBuilt] = await Promise.all([
      bundleAndRun<Record<string, ShapeReport>>(writeShapesEntry('shapes-esbuild'), 'esbuild'),
      bundleAndRun<Record<string, ShapeReport>>(writeShapesEntry('shapes-tsc'), 'tsc'),
    ]);
    // Jest resolves the module's imports too (no `.js` extensions in a CommonJS module)
    const { manifest: inJestManifest } = require(moduleFile) as { manifest: ToolManifest };
    const { runShapes } = require('./fixtures/shapes/main') as typeof import('./fixtures/shapes/main');
    const inJest = await runShapes(inJestManifest);

    for (const reports of [esbuilt, tscBuilt, inJest]) {
      expectNeverWeaker(reports);
      for (const name of Object.keys(VALIDATED)) expect({ name, registration: reports[name]?.registration }).toEqual({ name, registration: 'ok' });
      for (const name of REFUSED_BY_GENERATOR) expect(reports[name]?.registration).not.toBe('ok');
      expect(reports.TransformerOnly?.registration).toContain('INVALID_DEFINITION: TransformerOnly.run parameter \'x\' (#0): class ExposedOnly has no class-validator decorators');
      expect(reports.Undecorated?.registration).toContain('INVALID_DEFINITION: Undecorated.run parameter \'x\' (#0): class PlainClass has no class-validator decorators');
      expect(reports.DtoAsContext?.registration).toContain('OrderDto carries class-validator decorators, so it looks like a DTO');
    }
    // reflection sees the class; the manifest module cannot import it, and says so
    expect(tscBuilt.NotExported?.registration).toBe('ok');
    expect(esbuilt.NotExported?.registration).toContain('no module exports LocalDto. Fix: export the class');
  });
});
