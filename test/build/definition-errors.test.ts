import * as path from 'node:path';
import { generateManifest } from '../../src/build';
import { ToolkitError } from '../../src/errors';

const ROOT = path.resolve(__dirname, '..', '..');
const INVALID = 'test/build/fixtures/invalid';

/** The ToolkitError generateManifest throws for `files`. */
function failure(files: string[]): ToolkitError {
  try {
    generateManifest({ files, cwd: ROOT });
  } catch (error) {
    if (ToolkitError.is(error)) return error;
    throw error;
  }
  throw new Error('generateManifest did not throw');
}

describe('definitions the generator cannot handle', () => {
  it('a destructured parameter without a name: file:line:column and both fixes', () => {
    const error = failure([`${INVALID}/destructured.ts`]);
    expect(error.code).toBe('INVALID_DEFINITION');
    expect(error.message).toBe(
      'cannot generate the manifest (1 problem):\n' +
        `${INVALID}/destructured.ts:6:10: DestructuringService.search: parameter 0 is destructured and has no name. ` +
        "Fix: name it (`options: Options`) and destructure inside the method, or name it with @ToolParam({ name: 'options' }).",
    );
  });

  it('a class with tools that is not exported', () => {
    const error = failure([`${INVALID}/not-exported.ts`]);
    expect(error.code).toBe('INVALID_DEFINITION');
    expect(error.message).toContain(`${INVALID}/not-exported.ts:4:7: class HiddenService has @Tool methods but is not exported.`);
    expect(error.message).toContain('Fix: add `export` (`export class HiddenService`)');
  });

  it('two tool classes with the same name in different files names both files', () => {
    const error = failure([`${INVALID}/twin-*.ts`]);
    expect(error.message).toContain(`${INVALID}/twin-b.ts:3:1: two tool classes are named TwinService (also ${INVALID}/twin-a.ts:3).`);
    expect(error.message).toContain('Fix: rename one of them');
  });

  it('a rest parameter', () => {
    expect(failure([`${INVALID}/rest.ts`]).message).toContain(
      `${INVALID}/rest.ts:5:7: RestService.sum: rest parameter values cannot be a tool parameter. Fix: take an array instead`,
    );
  });

  it('reports every problem at once, one line each', () => {
    const lines = failure([`${INVALID}/destructured.ts`, `${INVALID}/not-exported.ts`, `${INVALID}/rest.ts`]).message.split('\n');
    expect(lines[0]).toBe('cannot generate the manifest (3 problems):');
    expect(lines.slice(1).map((l) => l.split(':')[0])).toEqual([
      `${INVALID}/destructured.ts`,
      `${INVALID}/not-exported.ts`,
      `${INVALID}/rest.ts`,
    ]);
  });

  it('a parameter type JSON Schema cannot express names the parameter, its type and the fix', () => {
    const error = failure([`${INVALID}/unsupported.ts`]);
    expect(error.code).toBe('INVALID_DEFINITION');
    expect(error.message).toMatch(
      new RegExp(`^${INVALID}/unsupported.ts:11:8: UnsupportedService.take: the type of parameter table \\(SymbolKeyed\\) cannot be expressed as JSON Schema: .+ Fix: `),
    );
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('with onProblem: every problem goes there, one line each, and the other files are still described', () => {
    const problems: string[] = [];
    const manifest = generateManifest({
      files: [`${INVALID}/*.ts`, 'test/build/fixtures/weather-service.ts'],
      cwd: ROOT,
      onProblem: (problem) => problems.push(problem),
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      `${INVALID}/destructured.ts`,
      `${INVALID}/not-exported.ts`,
      `${INVALID}/rest.ts`,
      `${INVALID}/twin-b.ts`,
      `${INVALID}/unsupported.ts`, // found while analysing types, after the syntactic scan
    ]);
    expect(problems.every((p) => p.includes('Fix: '))).toBe(true);
    expect(Object.keys(manifest.classes)).not.toContain('TwinService');
    expect(Object.keys(manifest.classes)).not.toContain('UnsupportedService');
    expect(Object.values(manifest.classes).map((c) => c.file)).toEqual(
      Object.keys(manifest.classes).map(() => 'test/build/fixtures/weather-service.ts'),
    );
    expect(Object.keys(manifest.classes).length).toBeGreaterThan(0);
  });

  it('no files, or files that do not exist: NO_MATCHING_FILES', () => {
    expect(failure([])).toMatchObject({ code: 'NO_MATCHING_FILES', message: expect.stringContaining('no source files to scan') });
    expect(failure(['test/build/fixtures/nothing-*.ts'])).toMatchObject({
      code: 'NO_MATCHING_FILES',
      message: 'no TypeScript source file matches test/build/fixtures/nothing-*.ts',
    });
  });

  it('a tsconfig that cannot be read: INVALID_TSCONFIG', () => {
    let error: unknown;
    try {
      generateManifest({ project: 'test/build/fixtures/no-such-tsconfig.json', cwd: ROOT });
    } catch (e) {
      error = e;
    }
    expect(ToolkitError.is(error, 'INVALID_TSCONFIG')).toBe(true);
    expect((error as ToolkitError).message).toContain('cannot read tsconfig test/build/fixtures/no-such-tsconfig.json');
  });
});
