import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { generateManifest, serializeManifestModule } from '../../src/build';
import { ROOT } from '../support/child-process';
import type { QuickReport as QuickOnly, ServiceReport } from './fixtures/quick/main';
import type { ShopReport } from './fixtures/shop/main';
import { bundleAndRun, expectValidated, runChild, runNode, runTsx } from './toolchain-runs';

/** What each toolchain prints: the Quick example's report, and the shop's with the manifest module and with explicit decorators. */
type QuickReport = QuickOnly & { readonly shop: { readonly manifest: ShopReport; readonly explicit: ShopReport } };

/**
 * What works without decorator metadata, per toolchain: the README's Quick example (a plain
 * `string` parameter and a context object, no explicit type), its twin that says every type in
 * its decorators (`type: () => String`, `default`, `@InjectContext`), and the Quick example with
 * the manifest module — each compiled once by tsc, swc, esbuild, tsx, Vitest 3 (Vite 7: the
 * esbuild transform), Vitest 4 (Vite 8: Oxc) and Bun, and run in a child process.
 */
jest.setTimeout(240_000);

const RUNNERS = path.join(ROOT, 'test/toolchains/runners/node_modules');
let dir: string;
let entry: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-matrix-'));
  // what a project has: its packages where its modules resolve them (Vitest and Bun take no NODE_PATH)
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  for (const [name, files] of [['quick', 'weather.service.ts'], ['shop', '*.ts']] as const) {
    const moduleFile = path.join(dir, `${name}.manifest.ts`);
    const manifest = generateManifest({ cwd: ROOT, files: [`test/toolchains/fixtures/${name}/${files}`] });
    fs.writeFileSync(moduleFile, serializeManifestModule(manifest, { outFile: moduleFile, cwd: ROOT }));
  }
  const main = (name: string): string => path.relative(dir, path.join(ROOT, 'test/toolchains/fixtures', name, 'main')).split(path.sep).join('/');
  fs.writeFileSync(
    path.join(dir, 'report.ts'),
    `import { manifest } from './quick.manifest';\nimport { manifest as shopManifest } from './shop.manifest';\n` +
      `import { runQuick } from '${main('quick')}';\nimport { runShop } from '${main('shop')}';\n` +
      'export async function report() {\n' +
      "  return { ...(await runQuick(manifest)), shop: { manifest: await runShop('manifest', shopManifest), explicit: await runShop('explicit') } };\n}\n",
  );
  entry = path.join(dir, 'entry.ts');
  fs.writeFileSync(entry, "import { report } from './report';\nreport().then((r) => console.log(JSON.stringify(r)));\n");
  // what Bun reads (one tsconfig.json for the whole run), as in a Bun project; an override without the metadata flag
  const flags = { experimentalDecorators: true, emitDecoratorMetadata: true };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: flags }));
  fs.writeFileSync(path.join(dir, 'tsconfig.no-metadata.json'), JSON.stringify({ compilerOptions: { ...flags, emitDecoratorMetadata: false } }));
  fs.writeFileSync(path.join(dir, 'tsconfig.standard-decorators.json'), JSON.stringify({ compilerOptions: {} }));
  // a Vitest test file writes the same report (`test` is a global: each Vitest resolves its own)
  fs.writeFileSync(
    path.join(dir, 'quick.test.ts'),
    "import { writeFileSync } from 'node:fs';\nimport { report } from './report';\n" +
      "test('report', async () => writeFileSync(process.env.QUICK_REPORT as string, JSON.stringify(await report())));\n",
  );
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * Vitest runs toolwright as a user's project has it: compiled JavaScript in node_modules, loaded
 * by Node (Vite transforms only the project's own files), here bundled from src/ once.
 */
async function vitestProject(): Promise<void> {
  const bundle = path.join(dir, 'vendor/node_modules/toolwright/index.js');
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'src/index.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    logLevel: 'silent',
    keepNames: true,
  });
  // its cache beside the project, not in the node_modules the project links to
  const config = { cacheDir: path.join(dir, '.vite'), resolve: { alias: [{ find: '../../../../src', replacement: bundle }] }, test: { globals: true } };
  fs.writeFileSync(path.join(dir, 'vitest.config.mjs'), `export default ${JSON.stringify(config)};\n`);
}

/** Runs the Vitest test file with one Vitest's CLI and reads the report it wrote. */
async function runVitest(cli: string, name: string): Promise<QuickReport> {
  const report = path.join(dir, `${name}.json`);
  await runChild(process.execPath, [cli, 'run', '--root', dir, '--reporter', 'dot', 'quick.test.ts'], dir, { QUICK_REPORT: report });
  return JSON.parse(fs.readFileSync(report, 'utf8')) as QuickReport;
}

async function runBun(args: readonly string[]): Promise<QuickReport> {
  return JSON.parse((await runChild(path.join(ROOT, 'node_modules/bun/bin/bun.exe'), [...args, entry], dir)).trim()) as QuickReport;
}

const TOOLCHAINS: Readonly<Record<string, () => Promise<QuickReport>>> = {
  tsc: () => bundleAndRun<QuickReport>(entry, 'tsc'),
  swc: () => runNode<QuickReport>(['-r', path.join(ROOT, 'scripts/swc-register.js'), entry], dir),
  'vitest 4 (Vite 8, Oxc)': () => runVitest(path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'vitest4'),
  bun: () => runBun([]),
  'bun without emitDecoratorMetadata': () => runBun(['--tsconfig-override', 'tsconfig.no-metadata.json']),
  esbuild: () => bundleAndRun<QuickReport>(entry, 'esbuild'),
  tsx: () => runTsx<QuickReport>(entry),
  'vitest 3 (Vite 7, esbuild)': () => runVitest(path.join(RUNNERS, 'vitest/vitest.mjs'), 'vitest3'),
};
const WITH_METADATA = ['tsc', 'swc', 'vitest 4 (Vite 8, Oxc)', 'bun'];
const WITHOUT_METADATA = ['esbuild', 'tsx', 'vitest 3 (Vite 7, esbuild)', 'bun without emitDecoratorMetadata'];

const outcomes = new Map<string, QuickReport | Error>();
/** Each toolchain compiles and runs once, two at a time (two cores), before the assertions. */
beforeAll(async () => {
  await vitestProject();
  const names = Object.keys(TOOLCHAINS);
  const next = async (): Promise<void> => {
    for (let name = names.shift(); name !== undefined; name = names.shift()) {
      outcomes.set(name, await TOOLCHAINS[name]!().catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))));
    }
  };
  await Promise.all([next(), next()]);
});

/** The report a toolchain printed; a toolchain that failed to run fails its own tests only. */
function reportOf(name: string): QuickReport {
  const outcome = outcomes.get(name);
  if (outcome === undefined || outcome instanceof Error) throw outcome ?? new Error(`${name} did not run`);
  return outcome;
}

function expectQuickWorks(report: ServiceReport): void {
  expect(report.registration).toBe('ok');
  expect(report.calls.valid).toEqual({ isError: false, text: 'Paris: 18 °C, cloudy' });
  expect(report.calls.notAString?.isError).toBe(true);
  expect(report.calls.notAString?.text).toContain("'city': must be string");
}

describe('what each toolchain gives', () => {
  it.each(WITH_METADATA)('%s emits decorator metadata: the Quick example works as written', (name) => {
    const report = reportOf(name);
    expect(report.metadata).toBe(true);
    expectQuickWorks(report.quick);
  });

  it.each(WITHOUT_METADATA)('%s emits none: the Quick example fails registration, naming each parameter and its fix', (name) => {
    const report = reportOf(name);
    expect(report.metadata).toBe(false);
    const message = report.quick.registration;
    expect(message).toMatch(/^DECORATOR_METADATA_MISSING: WeatherService\.getWeather: no design:paramtypes metadata \(esbuild, tsx and vitest on Vite 7 or older emit none/);
    expect(message).toContain("  - parameter 'city' (#0) has a @ToolParam that names no type: name its type: @ToolParam({ name: 'city', type: () => String })");
    expect(message).toContain('  - parameter #1 has no @ToolParam and no @InjectContext: mark a context object @InjectContext(TheClass)');
    expect(message).toContain('-o tools.manifest.ts');
    expect(report.quick.calls).toEqual({});
  });

  it.each([...WITH_METADATA, ...WITHOUT_METADATA])('%s: types said in the decorators (type thunk, default, @InjectContext for a context, the emitter and the signal) work, as under tsc', (name) => {
    const { plain } = reportOf(name);
    expect(plain.registration).toBe('ok');
    expect(plain.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'number', minimum: 1, maximum: 14, default: 3 },
        metric: { type: 'boolean', default: true },
        unit: { type: 'string', default: 'short' },
      },
      required: ['city'],
      additionalProperties: false,
    });
    expect(plain.calls.defaults).toEqual({ isError: false, text: 'Paris: 18 °C, cloudy for 3 days, metric=true, short (string,number,boolean,string,true) [forecasting]' });
    expect(plain.calls.given).toEqual({ isError: false, text: 'Lyon: 18 °C, cloudy for 5 days, metric=false, long (string,number,boolean,string,true) [forecasting]' });
    expect(plain.calls.nullMeansDefault?.text).toBe('Nice: 18 °C, cloudy for 3 days, metric=true, short (string,number,boolean,string,true) [forecasting]');
    expect(plain.calls.wrongTypes?.isError).toBe(true);
    expect(plain.calls.wrongTypes?.text).toContain("'days': must be number");
    expect(plain.calls.wrongTypes?.text).toContain("'metric': must be boolean");
    expect(plain.calls.outOfRange?.text).toContain("'days': must be <= 14");
    expect(plain).toEqual(reportOf('tsc').plain);
  });

  it.each([...WITH_METADATA, ...WITHOUT_METADATA])('%s with the manifest module: the Quick example works as written', (name) => {
    expectQuickWorks(reportOf(name).quickWithManifest);
  });

  it('bun without experimentalDecorators (standard decorators): the class fails to load, naming the tsconfig flag', async () => {
    const run = runChild(path.join(ROOT, 'node_modules/bun/bin/bun.exe'), ['--tsconfig-override', 'tsconfig.standard-decorators.json', entry], dir);
    await expect(run).rejects.toThrow(
      '@Tool on getWeather ran as a standard (TC39) decorator, which cannot decorate parameters: toolwright\'s decorators are ' +
        'TypeScript\'s experimental ones. Set "experimentalDecorators": true in the tsconfig.json your compiler reads',
    );
  });

  it.each([...WITH_METADATA, ...WITHOUT_METADATA])('%s: the shop (DTOs, arrays of DTOs, a Date, contexts) validated by class-validator, as under tsc', (name) => {
    const { shop } = reportOf(name);
    expectValidated(shop.manifest);
    expect(shop.manifest).toEqual(reportOf('tsc').shop.manifest);
    expect(shop.explicit.registration).toBe('ok');
    expect(JSON.parse(shop.explicit.calls.valid!.text)).toMatchObject({ orderIsInstance: true, linesAreInstances: true, user: 'u-7', tenant: 'acme' });
    expect(shop.explicit).toEqual(reportOf('tsc').shop.explicit);
  });
});
