import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** The members of the `ToolkitErrorCode` union, read from its declaration. */
function declaredCodes(): string[] {
  const source = fs.readFileSync(path.join(root, 'src/errors/toolkit-error.ts'), 'utf8');
  const union = /export type ToolkitErrorCode =([\s\S]*?);/.exec(source)?.[1] ?? '';
  return [...union.matchAll(/\|\s*'([A-Z_]+)'/g)].map((m) => m[1]);
}

describe('error codes', () => {
  it('every code of ToolkitErrorCode is explained in the README error tables', () => {
    const codes = declaredCodes();
    expect(codes.length).toBeGreaterThan(40);
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const tables = readme.slice(readme.indexOf('## Error codes'), readme.indexOf('\n## ', readme.indexOf('## Error codes') + 1));
    const rows = tables.split('\n').filter((line) => line.startsWith('| `'));
    const explained = new Set(rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z_]+)`/g)].map((m) => m[1])));
    expect(codes.filter((code) => !explained.has(code))).toEqual([]);
    expect([...explained].filter((code) => !codes.includes(code))).toEqual([]);
  });
});
