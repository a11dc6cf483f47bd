import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/build/toolwright-schema-cli';
import { ROOT } from '../support/child-process';
import { linkPackages, packageBuild } from '../support/compiled-project';
import { writeProject } from '../support/project-files';

/**
 * An ES module project as tsx, esbuild and Vite users write it: `"type": "module"`, bundler
 * module resolution, relative imports without an extension, toolwright installed in its
 * node_modules (the package built from src/ as `npm run build` builds it: an ES module imports
 * its CommonJS, as Node's lexer reads the names tsc emits). The generator must not describe
 * types it cannot resolve (their schemas would accept anything); with the project's tsconfig
 * the manifest module imports with `.js`, `--check` agrees, and tsx runs it with class-validator.
 */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'esm-shop', private: true, type: 'module' }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'preserve',
      moduleResolution: 'bundler',
      strict: true,
      experimentalDecorators: true,
      skipLibCheck: true,
      types: [],
    },
    include: ['src'],
  }),
  'src/order.dto.ts': `
import { IsInt, Matches } from 'class-validator';
export class LineDto {
  /** A rule only class-validator holds: a JSON Schema pattern has no flags. */
  @Matches(/^[a-z]$/i) sku!: string;
  @IsInt() qty!: number;
}
`,
  'src/shop.service.ts': `
import { Tool, ToolParam, ToolService } from 'toolwright';
import { LineDto } from './order.dto';

@ToolService()
export class Shop {
  /** Place lines. */
  @Tool()
  place(@ToolParam() lines: LineDto[]): string {
    return lines.map((line) => (line instanceof LineDto ? 'LineDto' : 'plain')).join(',');
  }
}
`,
  'src/main.ts': `
import { Toolkit } from 'toolwright';
import { Shop } from './shop.service';
import { manifest } from './tools.manifest';

const toolkit = new Toolkit({ manifest });
toolkit.registerTool(Shop);
const valid = await toolkit.callTool({ id: '1', name: 'place', arguments: { lines: [{ sku: 'a', qty: 1 }] } });
const invalid = await toolkit.callTool({ id: '2', name: 'place', arguments: { lines: [{ sku: '??', qty: 1 }] } });
console.log(JSON.stringify({ valid: valid.forLLM, invalid: invalid.forLLM }));
`,
};

let dir: string;

// Each test runs the TypeScript compiler over the project and toolwright's declarations (and the
// second a tsx child): ~2 s and ~14 s on an idle machine, several times that on two loaded cores.
// The package is built once per state of src/ (under a minute), then reused.
const COMPILER_TEST_MS = 240_000;
const TSX_CHILD_MS = 180_000;

function generate(...extra: string[]): { code: number; stderr: string } {
  let stderr = '';
  const code = main(['src/**/*.ts', '-o', 'src/tools.manifest.ts', ...extra], {
    cwd: dir,
    stderrIsTTY: false,
    stdout: () => undefined,
    stderr: (text) => (stderr += text),
  });
  return { code, stderr };
}

beforeAll(() => {
  dir = writeProject('toolwright-esm-', FILES);
  fs.symlinkSync(packageBuild(), path.join(linkPackages(dir), 'toolwright'), 'dir');
}, COMPILER_TEST_MS);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('an ES module project (tsx, bundler resolution, imports without extensions)', () => {
  it('without its tsconfig the generator cannot resolve the DTO, and refuses to write `items: {}` for it, naming the import and the fix', () => {
    const { code, stderr } = generate();
    expect(code).toBe(1);
    expect(stderr).toContain('Shop.place: the type of parameter lines (LineDto[]) does not resolve');
    // toolwright itself resolves (the installed package): only the DTO's import is named
    expect(stderr).toContain("src/shop.service.ts imports './order.dto', which the generator's module resolution cannot find");
    expect(stderr).toContain('--project tsconfig.json');
    expect(stderr).toContain('"moduleResolution": "bundler"');
    expect(stderr).toContain("or write the import as that resolution needs it ('./order.dto.js')");
    expect(stderr.length).toBeLessThan(2000);
    // the class with the problem is left out: registration then fails instead of accepting anything
    expect(fs.readFileSync(path.join(dir, 'src/tools.manifest.ts'), 'utf8')).not.toContain('"Shop"');
  }, COMPILER_TEST_MS);

  it('with its tsconfig: imports with .js (an ES module), --check agrees, and tsx validates with class-validator and passes instances', async () => {
    expect(generate('-p', 'tsconfig.json')).toEqual({ code: 0, stderr: '' });
    expect(fs.readFileSync(path.join(dir, 'src/tools.manifest.ts'), 'utf8')).toContain('import { LineDto as t0 } from "./order.dto.js";\n');
    expect(generate('-p', 'tsconfig.json', '--check')).toEqual({ code: 0, stderr: '' });

    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'src/main.ts'], { cwd: dir, timeout: TSX_CHILD_MS }, (error, out, err) =>
        error ? reject(new Error(`tsx src/main.ts failed: ${error.message}\n${err}`)) : resolve(out),
      );
    });
    const report = JSON.parse(stdout.trim()) as { valid: string; invalid: string };
    expect(report.valid).toBe('LineDto');
    expect(report.invalid).toContain("'lines[0].sku': sku must match /^[a-z]$/i regular expression");
  }, COMPILER_TEST_MS);
});
