import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expandGlobs } from '../../src/build/expand-globs';
import { ToolkitError } from '../../src/errors';

let dir: string;

const FILES = [
  'a.ts',
  'b.tsx',
  'c.d.ts',
  'notes.md',
  'src/one.service.ts',
  'src/two.service.ts',
  'src/helper.ts',
  'src/deep/er/three.service.ts',
  'src/deep/module.mts',
  'src/.hidden/secret.service.ts',
  'node_modules/pkg/index.ts',
  'src/node_modules/pkg/inner.service.ts',
  'lib/x1.ts',
  'lib/x22.ts',
  'lib/y3.ts',
  'pages/[id].ts',
];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-globs-'));
  for (const file of FILES) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), '');
  }
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const rel = (files: string[]): string[] => files.map((f) => path.relative(dir, f).split(path.sep).join('/'));

describe('expandGlobs', () => {
  it('expands * within one directory, keeping only TypeScript sources (no .d.ts)', () => {
    expect(rel(expandGlobs(['*'], dir))).toEqual(['a.ts', 'b.tsx']);
    expect(rel(expandGlobs(['src/*.service.ts'], dir))).toEqual(['src/one.service.ts', 'src/two.service.ts']);
  });

  it('expands ** across directories, skipping node_modules and dot directories', () => {
    expect(rel(expandGlobs(['src/**/*.service.ts'], dir))).toEqual([
      'src/deep/er/three.service.ts',
      'src/one.service.ts',
      'src/two.service.ts',
    ]);
    expect(rel(expandGlobs(['**/*.mts'], dir))).toEqual(['src/deep/module.mts']);
  });

  it('supports ? and {a,b}', () => {
    expect(rel(expandGlobs(['lib/x?.ts'], dir))).toEqual(['lib/x1.ts']);
    expect(rel(expandGlobs(['src/{one,two}.service.ts'], dir))).toEqual(['src/one.service.ts', 'src/two.service.ts']);
  });

  it('supports braces across directories, character classes and absolute patterns', () => {
    expect(rel(expandGlobs(['src/{deep,deep/er}/*.{ts,mts}'], dir))).toEqual(['src/deep/er/three.service.ts', 'src/deep/module.mts']);
    expect(rel(expandGlobs(['{src,lib/x*}/*.ts'], dir))).toEqual(['src/helper.ts', 'src/one.service.ts', 'src/two.service.ts']);
    expect(rel(expandGlobs(['lib/[xy][0-9].ts'], dir))).toEqual(['lib/x1.ts', 'lib/y3.ts']);
    expect(rel(expandGlobs(['lib/[!x]*.ts'], dir))).toEqual(['lib/y3.ts']);
    expect(rel(expandGlobs([`${dir.split(path.sep).join('/')}/lib/x?.ts`], process.cwd()))).toEqual(['lib/x1.ts']);
  });

  it('takes a path that exists literally, even with glob characters in its name', () => {
    expect(rel(expandGlobs(['pages/[id].ts'], dir))).toEqual(['pages/[id].ts']);
  });

  it('takes plain paths and directories (every source below), absolute or relative', () => {
    expect(rel(expandGlobs([path.join(dir, 'a.ts')], process.cwd()))).toEqual(['a.ts']);
    expect(rel(expandGlobs(['src/deep'], dir))).toEqual(['src/deep/er/three.service.ts', 'src/deep/module.mts']);
  });

  it('names explicit dot directories and node_modules when asked to', () => {
    expect(rel(expandGlobs(['src/.hidden/*.ts'], dir))).toEqual(['src/.hidden/secret.service.ts']);
    expect(rel(expandGlobs(['src/node_modules/**/*.ts'], dir))).toEqual(['src/node_modules/pkg/inner.service.ts']);
  });

  it('returns a sorted, de-duplicated list of absolute paths', () => {
    const files = expandGlobs(['src/two.service.ts', 'src/*.service.ts', 'a.ts'], dir);
    expect(files.every((f) => path.isAbsolute(f))).toBe(true);
    expect(rel(files)).toEqual(['a.ts', 'src/one.service.ts', 'src/two.service.ts']);
  });

  it('throws NO_MATCHING_FILES for a missing path, a non-TypeScript file, or a pattern without matches', () => {
    expect(() => expandGlobs(['nope.ts'], dir)).toThrow(new ToolkitError('NO_MATCHING_FILES', 'no such file or directory: nope.ts'));
    expect(() => expandGlobs(['notes.md'], dir)).toThrow('not a TypeScript source file: notes.md');
    expect(() => expandGlobs(['c.d.ts'], dir)).toThrow('not a TypeScript source file: c.d.ts');
    expect(() => expandGlobs(['src/**/*.js'], dir)).toThrow('no TypeScript source file matches src/**/*.js');
    expect(() => expandGlobs(['*.md'], dir)).toThrow(ToolkitError);
    for (const pattern of ['nope.ts', 'notes.md', 'c.d.ts', 'src/**/*.js', '*.md']) {
      let error: unknown;
      try {
        expandGlobs([pattern], dir);
      } catch (e) {
        error = e;
      }
      expect(ToolkitError.is(error, 'NO_MATCHING_FILES')).toBe(true);
    }
  });
});
