/**
 * `npm run docs:check` (scripts/check-site.js) against tiny VitePress sites built here: one with a
 * fault of every kind the checker looks for, each of which it must report, and a clean one it must
 * pass. Needs Chromium ($CHROMIUM_PATH or /usr/bin/chromium), as `npm run docs:check` does.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, type ChildRun } from '../support/child-process';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const VITEPRESS = path.join(ROOT, 'node_modules/vitepress/bin/vitepress.js');

/** Runs `node args…` in the repository root. */
function node(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, args, { cwd: ROOT, env, timeout: 90_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error?.killed) reject(new Error(`node ${args.join(' ')} did not exit within 90 s:\n${stderr}`));
      else resolve({ code: child.exitCode, stdout, stderr, exitedAt: Date.now() });
    });
  });
}

const GUIDE = ['# Guide', '', '## Setup', '', 'Install it.', ''].join('\n');

/** Writes a VitePress project of `pages` (file → markdown) and builds it; the directory of the built site. */
async function buildSite(dir: string, pages: Record<string, string>): Promise<string> {
  fs.mkdirSync(path.join(dir, '.vitepress'), { recursive: true });
  // dead links are the checker's to find: VitePress would stop the build at the first. The title is
  // on every page, in the nav bar, but not in the search index, which holds the pages' content.
  fs.writeFileSync(path.join(dir, '.vitepress/config.mts'), "export default { title: 'Quokkasite', ignoreDeadLinks: true, themeConfig: { search: { provider: 'local' } } };\n");
  for (const [file, text] of Object.entries(pages)) fs.writeFileSync(path.join(dir, file), text);
  const build = await node([VITEPRESS, 'build', dir]);
  if (build.code !== 0) throw new Error(`vitepress build ${dir} failed:\n${build.stderr}`);
  return path.join(dir, '.vitepress/dist');
}

const checkSite = (site: string, ...args: string[]): Promise<ChildRun> => node(['scripts/check-site.js', '--site', site, ...args]);

describe('npm run docs:check', () => {
  const base = path.join(ROOT, '.cache', `check-site-${process.pid}`);
  let faulty: string;
  let clean: string;

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) {
      throw new Error(`Chromium not found at ${CHROMIUM}: the documentation check needs it (apt-get install chromium, or set CHROMIUM_PATH)`);
    }
    [faulty, clean] = await Promise.all([
      buildSite(path.join(base, 'faulty'), {
        'index.md': [
          '# Fixture',
          '',
          'The `get_weather` tool.',
          '',
          '- [a page that is not there](./nowhere.md)',
          '- [a heading that is not there](./guide.md#no-such-heading)',
          '- [a heading that is there](./guide.md#setup)',
          '- [a file the repository has](https://github.com/toolwright/toolwright/blob/main/package.json)',
          '- [a file the repository lacks](https://github.com/toolwright/toolwright/blob/main/src/no-such-file.ts)',
          '- [a folder the repository lacks](https://github.com/toolwright/toolwright/tree/main/no-such-dir)',
          '',
        ].join('\n'),
        'guide.md': GUIDE,
        'noisy.md': [
          '<script setup>',
          "if (typeof window !== 'undefined') {",
          "  console.error('fixture: a page that logs an error');",
          "  fetch('/missing-data.json');",
          '}',
          '</script>',
          '',
          '# Noisy',
          '',
        ].join('\n'),
      }),
      buildSite(path.join(base, 'clean'), {
        'index.md': ['# Fixture', '', 'The `get_weather` tool; see [setup](./guide.md#setup) and [the manifest](https://github.com/toolwright/toolwright/blob/main/package.json).', ''].join('\n'),
        'guide.md': GUIDE,
      }),
    ]);
  }, 180_000);

  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  it('reports every fault of the faulty site, each named with its page, and fails', async () => {
    const run = await checkSite(faulty, '--search', 'get_weather', '--search', 'no_such_tool_name', '--search', 'Quokkasite');
    expect(run.code).toBe(1);
    const report = run.stderr;
    expect(report).toMatch(/^check-site: 3 pages, \d+ links \(\d+ anchors, 3 repository links\), 2 searches in [\d.]+ s: 9 problem\(s\)$/m);
    expect(report).toContain('/index.html: link to a missing page: /nowhere.html');
    expect(report).toContain('/index.html: link to /guide.html#no-such-heading: no element has that id there');
    expect(report).toContain('/index.html: link to blob/main/src/no-such-file.ts, which the repository does not have');
    expect(report).toContain('/index.html: link to tree/main/no-such-dir, which the repository does not have');
    expect(report).toMatch(/\/noisy\.html: console error: fixture: a page that logs an error/);
    expect(report).toContain('/noisy.html: request failed: /missing-data.json (HTTP 404)');
    expect(report).toContain('(search): search term "no_such_tool_name" appears on no page');
    expect(report).toContain('(search): the search box finds nothing for "Quokkasite"');
    expect(report).not.toContain('#setup');
    expect(report).not.toContain('package.json');
    expect(report).not.toContain('"get_weather"');
  }, 120_000);

  it('passes the clean site, searching it for a tool name with its search box', async () => {
    const run = await checkSite(clean, '--search', 'get_weather');
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^check-site: 2 pages, \d+ links \(\d+ anchors, 1 repository links\), 1 searches in [\d.]+ s: OK\n$/);
    expect(run.code).toBe(0);
  }, 120_000);

  it('says how to install Chromium when there is none', async () => {
    const run = await node(['scripts/check-site.js', '--site', clean], { ...process.env, CHROMIUM_PATH: path.join(base, 'no-chromium') });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('apt-get install chromium');
  });
});
