import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * README.md stays an entry point, not the manual: at most 300 lines, and every documentation page
 * it links (`docs/….md`, as GitHub renders them) exists.
 */
const ROOT = path.resolve(__dirname, '../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe('README.md', () => {
  it('has at most 300 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links only documentation pages that exist', () => {
    const links = [...README.matchAll(/\]\((docs\/[^)#\s]+\.md)(?:#[^)\s]*)?\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThanOrEqual(20);
    expect(links.filter((link) => !fs.existsSync(path.join(ROOT, link)))).toEqual([]);
  });
});
