import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main, USAGE } from '../../src/build/toolwright-schema-cli';
import type { ToolManifest } from '../../src/model/manifest';

const STUB = `
export function Tool(_options?: { name?: string; description?: string }): MethodDecorator { return () => undefined; }
export function ToolParam(_options?: { name?: string }): ParameterDecorator { return () => undefined; }
export class ToolEmitter { emit(_message: string): void {} }
`;

const GREETER = `
import { Tool, ToolEmitter } from '../stub';

/** Greeting tools. */
export class Greeter {
  /**
   * Greet someone.
   * @param name who to greet
   * @param style how
   */
  @Tool()
  greet(name: string, style: 'formal' | 'casual' = 'casual', emitter?: ToolEmitter): string {
    void emitter;
    return style === 'formal' ? \`Good day, \${name}\` : \`hi \${name}\`;
  }
}
`;

const COUNTER = `
import { Tool } from '../../stub';

export class Counter {
  /** Add one. @param by step */
  @Tool()
  increment(by?: number): number {
    return (by ?? 1) + 1;
  }
}
`;

/** Runs main() with captured output. */
function run(argv: string[], options: { tty?: boolean; cwd: string }): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = main(argv, {
    cwd: options.cwd,
    stderrIsTTY: options.tty ?? false,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-cli-'));
  fs.writeFileSync(path.join(dir, 'stub.ts'), STUB);
  fs.mkdirSync(path.join(dir, 'src', 'nested'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src', 'greeter.ts'), GREETER);
  fs.writeFileSync(path.join(dir, 'src', 'nested', 'counter.ts'), COUNTER);
  fs.writeFileSync(path.join(dir, 'src', 'plain.ts'), 'export const notATool = 1;\n');
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['ES2022'],
        types: [],
        strict: true,
        experimentalDecorators: true,
        // overridden by the generator: it never emits and always checks nulls
        strictNullChecks: false,
        outDir: 'out',
        incremental: true,
      },
      include: ['src/**/*.ts', 'stub.ts'],
    }),
  );
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('usage', () => {
  it('prints help on --help and exits 0', () => {
    const result = run(['--help'], { cwd: dir });
    expect(result).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    expect(USAGE).toContain('--project');
    expect(USAGE).toContain('--check');
    expect(USAGE).toContain('--watch');
    expect(USAGE).toContain('npm i -D typescript typescript-json-schema');
  });

  it.each([
    [['src/greeter.ts'], 'missing -o <manifest.json>'],
    [['-o', 'm.json'], 'no source files given'],
    [['src/greeter.ts', '-o'], '-o needs a value'],
    [['src/greeter.ts', '--out='], '--out needs a value'],
    [['src/greeter.ts', '-o', 'a.json', '-o', 'b.json'], '-o given twice'],
    [['src/greeter.ts', '-o', 'm.json', '--frobnicate'], 'unknown option --frobnicate'],
    [['src/missing.ts', '-o', 'm.json'], 'no such file or directory: src/missing.ts'],
    [['src/**/*.tsx', '-o', 'm.json'], 'no TypeScript source file matches src/**/*.tsx'],
    [['stub.js', '-o', 'm.json'], 'no such file or directory: stub.js'],
    [['-p', 'nope.json', '-o', 'm.json'], 'tsconfig not found: nope.json'],
    [['src/greeter.ts', '-o', 'm.json', '--check', '--watch'], '--check and --watch exclude each other'],
  ])('%j exits 2 with one line: %s', (argv, message) => {
    const result = run(argv, { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^toolwright-schema: .*\(run toolwright-schema --help for usage\)\n$/);
  });
});

describe('generating and checking', () => {
  const out = 'generated/tools.manifest.json';
  const outPath = (): string => path.join(dir, out);

  it('writes the manifest for a ** glob, with a progress line per file on a TTY', () => {
    const result = run(['src/**/*.ts', '-o', out], { cwd: dir, tty: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      'toolwright-schema: compiling 3 files…',
      'toolwright-schema: [1/3] src/greeter.ts (1 tool)',
      'toolwright-schema: [2/3] src/nested/counter.ts (1 tool)',
      'toolwright-schema: [3/3] src/plain.ts',
      `toolwright-schema: wrote ${out} (2 tools in 2 classes)`,
    ]);
    const text = fs.readFileSync(outPath(), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.startsWith('{\n  "version": 1,\n  "generator": "toolwright-schema",\n')).toBe(true);
    const manifest = JSON.parse(text) as ToolManifest;
    expect(Object.keys(manifest.classes)).toEqual(['Counter', 'Greeter']);
    expect(manifest.classes.Greeter?.file).toBe('src/greeter.ts');
    expect(manifest.classes.Greeter?.methods.greet?.params.map((p) => [p.name, p.kind, p.optional])).toEqual([
      ['name', 'model', false],
      ['style', 'model', true],
      ['emitter', 'injected', true],
    ]);
    expect(manifest.classes.Counter?.methods.increment?.params[0]?.schema).toEqual({ type: 'number', description: 'step' });
  });

  it('--check exits 0 and stays quiet off a TTY when the manifest is up to date (CRLF too); a rerun leaves the file untouched', () => {
    fs.writeFileSync(outPath(), fs.readFileSync(outPath(), 'utf8').replace(/\n/g, '\r\n'));
    const before = fs.statSync(outPath()).mtimeMs;
    const check = run(['src/**/*.ts', '-o', out, '--check'], { cwd: dir });
    expect(check).toEqual({ code: 0, stdout: '', stderr: '' });
    const again = run(['src/**/*.ts', '-o', out], { cwd: dir });
    expect(again).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(fs.statSync(outPath()).mtimeMs).toBe(before);
  });

  it('--check exits 1 naming what changed and how to regenerate when the manifest is stale', () => {
    const manifest = JSON.parse(fs.readFileSync(outPath(), 'utf8')) as ToolManifest;
    const greet = manifest.classes.Greeter?.methods.greet;
    if (greet === undefined) throw new Error('fixture missing');
    greet.description = 'an old description';
    delete manifest.classes.Counter;
    (manifest.classes as Record<string, unknown>).Gone = { file: 'src/gone.ts', methods: { old: { params: [] } } };
    fs.writeFileSync(outPath(), `${JSON.stringify(manifest, null, 2)}\n`);

    const result = run(['src/**/*.ts', '-o', out, '--check'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`toolwright-schema: ${out} is out of date:`);
    expect(result.stderr).toContain('~ Greeter.greet (changed)');
    expect(result.stderr).toContain('+ Counter.increment (new)');
    expect(result.stderr).toContain('- Gone.old (removed)');
    expect(result.stderr).toContain(`Run \`toolwright-schema 'src/**/*.ts' -o ${out}\` to update it.`);
  });

  it('--check exits 1 when the manifest does not exist', () => {
    const result = run(['src/greeter.ts', '-o', 'missing/manifest.json', '--check'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'toolwright-schema: missing/manifest.json does not exist. Run `toolwright-schema src/greeter.ts -o missing/manifest.json` to create it.\n',
    );
    expect(fs.existsSync(path.join(dir, 'missing'))).toBe(false);
  });

  it('--project takes the files and compiler options from a tsconfig (and overrides strictNullChecks)', () => {
    const result = run(['--project', 'tsconfig.json', '-o', 'project.manifest.json'], { cwd: dir });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'project.manifest.json'), 'utf8')) as ToolManifest;
    expect(Object.keys(manifest.classes)).toEqual(['Counter', 'Greeter']);
    // With files on the command line only those are scanned; the tsconfig still gives the options.
    const narrowed = run(['src/nested/counter.ts', '-p', 'tsconfig.json', '--out=counter.json'], { cwd: dir });
    expect(narrowed.code).toBe(0);
    const counter = JSON.parse(fs.readFileSync(path.join(dir, 'counter.json'), 'utf8')) as ToolManifest;
    expect(Object.keys(counter.classes)).toEqual(['Counter']);
    expect(counter.classes.Counter).toEqual(manifest.classes.Counter);
  });

  it('exits 1 with the problems, file:line and fix when generation fails: a tool class registered in its own file, not exported', () => {
    fs.writeFileSync(path.join(dir, 'bad.ts'), `import { Tool } from './stub';\nclass Hidden {\n  @Tool()\n  x(): void {}\n}\nexport const h = new Hidden();\n`);
    const result = run(['bad.ts', '-o', 'bad.json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'toolwright-schema: bad.ts:2:7: class Hidden has @Tool methods but is not exported. Fix: add `export` (`export class Hidden`), also in a file ' +
        'that registers it itself: the manifest describes exported classes only, and the toolkit finds each tool class in it by name.\n',
    );
    expect(result.stderr).toContain('toolwright-schema: 1 problem: the files named above are left out of bad.json (0 tools in 0 classes)');
    expect((JSON.parse(fs.readFileSync(path.join(dir, 'bad.json'), 'utf8')) as ToolManifest).classes).toEqual({});
  });

  // one bad file failed the whole run, and the glob expansion broke on {a,b/c}
  it('the real bin reports every problem per file, describes the other files and exits 1 at the end', () => {
    const project = path.join(dir, 'keep-going');
    const write = (file: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      fs.writeFileSync(path.join(project, file), text);
    };
    write('stub.ts', STUB);
    write('src/good/greeter.ts', GREETER.replace('../stub', '../../stub'));
    write('src/admin/tools/counter.ts', COUNTER.replace('../../stub', '../../../stub'));
    write('src/good/hidden.ts', `import { Tool } from '../../stub';\nclass Hidden {\n  @Tool()\n  x(): void {}\n}\nexport const h = new Hidden();\n`);
    write('src/good/twin.ts', `import { Tool } from '../../stub';\nexport class Counter {\n  @Tool()\n  y(): void {}\n}\n`);
    const cli = path.resolve(__dirname, '../../src/build/toolwright-schema-cli.ts');
    const register = path.resolve(__dirname, '../../scripts/swc-register.js');
    const result = spawnSync(process.execPath, ['-r', register, cli, 'src/{good,admin/tools}/*.ts', '-o', 'out/tools.json'], { cwd: project, encoding: 'utf8' });
    expect(result.status).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^toolwright-schema: src\/good\/hidden\.ts:2:7: class Hidden has @Tool methods but is not exported\./);
    expect(lines[1]).toMatch(/^toolwright-schema: src\/good\/twin\.ts:2:1: two tool classes are named Counter \(also src\/admin\/tools\/counter\.ts:4\)\./);
    expect(lines[2]).toBe('toolwright-schema: 2 problems: the files named above are left out of out/tools.json (1 tools in 1 classes)');
    expect(lines).toHaveLength(3);
    const manifest = JSON.parse(fs.readFileSync(path.join(project, 'out/tools.json'), 'utf8')) as ToolManifest;
    expect(Object.keys(manifest.classes)).toEqual(['Greeter']);
    expect(manifest.classes.Greeter?.file).toBe('src/good/greeter.ts');
  });

  it('exits 1 for a malformed tsconfig', () => {
    fs.writeFileSync(path.join(dir, 'broken.json'), '{ "compilerOptions": { "target": "ES1999" } }');
    const result = run(['src/greeter.ts', '-p', 'broken.json', '-o', 'x.json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('invalid tsconfig broken.json');
  });
});
