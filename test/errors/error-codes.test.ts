import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const { readErrorCodes, renderErrorReference, SOURCE } = require('../../scripts/error-reference.js') as {
  readErrorCodes(file: string): { code: string; surfaces: string[]; explanation: string }[];
  renderErrorReference(codes: { code: string; surfaces: string[]; explanation: string }[]): string;
  SOURCE: string;
};

const root = path.resolve(__dirname, '../..');

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A source file in a fresh temporary directory, for the generator to read. */
function sourceWith(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-error-codes-'));
  dirs.push(dir);
  const file = path.join(dir, 'error-codes.ts');
  fs.writeFileSync(file, text);
  return file;
}

describe('error codes', () => {
  const codes = readErrorCodes(path.join(root, SOURCE));

  it('every code of ToolkitErrorCode has an explanation in the source', () => {
    expect(codes.length).toBeGreaterThan(40);
    for (const { code, explanation } of codes) expect({ code, explained: explanation.length > 10 }).toEqual({ code, explained: true });
    expect(new Set(codes.map((entry) => entry.code)).size).toBe(codes.length);
  });

  it('the generated reference lists every code once in a table, with its explanation, grouped by where it surfaces', () => {
    const page = renderErrorReference(codes);
    for (const { code, explanation } of codes) {
      const rows = page.split('\n').filter((line) => line.includes(`\`${code}\` |`));
      expect({ code, rows: rows.length }).toEqual({ code, rows: 1 });
      expect(rows[0]).toContain(explanation.slice(0, 40).replace(/\|/g, '\\|'));
    }
    const sections = page.split('\n## ').slice(1);
    expect(sections.map((section) => section.split('\n')[0])).toEqual(['Definition time and misuse', 'Call time', 'Resources and prompts']);
    expect(sections[0]).toContain('`MISSING_NAME`');
    expect(sections[1]).toContain('`UNKNOWN_TOOL`');
    expect(sections[2]).toContain('`UNKNOWN_RESOURCE`');
    // a code of several groups is explained in the first and linked to from the others
    expect(sections[2]).toContain('[`TIMEOUT`](#timeout)');
    expect(page).toContain('<span id="timeout"></span>`TIMEOUT`');
  });

  it('npm run docs fails on a code without an explanation or of an unknown kind, naming each', () => {
    const file = sourceWith(
      [
        'export interface ToolkitErrorCodes {',
        '  /** Documented. */',
        "  readonly GOOD: 'thrown';",
        "  readonly UNDOCUMENTED: 'result';",
        '  /** Of a kind no group has. */',
        "  readonly ODD: 'result' | 'logged';",
        '}',
      ].join('\n'),
    );
    expect(() => readErrorCodes(file)).toThrow(/2 error code\(s\) not documented:\n {2}UNDOCUMENTED: no JSDoc explaining it\n {2}ODD: type logged is none of 'thrown', 'result', 'rejection'/);
    expect(() => readErrorCodes(sourceWith('export type X = 1;'))).toThrow(/no interface ToolkitErrorCodes/);
  });

  it('a pipe in an explanation does not break the table, a {@link} becomes code', () => {
    const file = sourceWith(["export interface ToolkitErrorCodes {", '  /** Either `a | b`, see {@link ToolkitError}. */', "  readonly PIPE: 'thrown';", '}'].join('\n'));
    const page = renderErrorReference(readErrorCodes(file));
    expect(page).toContain('| <span id="pipe"></span>`PIPE` | Either `a \\| b`, see `ToolkitError`. |');
  });
});
