#!/usr/bin/env node
// `npm run docs:check`: the built documentation site (site/, from `npm run docs`) opened in a real
// Chromium. Every page is loaded from a local static server; the run fails on a console error or an
// uncaught exception, a request to the server that fails, a link to a page the site lacks, a `#x`
// with no element of that id on its page, a https://github.com/toolwright/toolwright/(blob|tree)/main/
// link to a path the repository lacks, and a search (the site's own search box) that finds nothing.
//
//   node scripts/check-site.js [--site DIR] [--repo DIR] [--search TERM]...
//
// Chromium: $CHROMIUM_PATH, else /usr/bin/chromium (Debian: `apt-get install chromium`).
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const REPO_LINK = /^https:\/\/github\.com\/toolwright\/toolwright\/(blob|tree)\/main\/([^?#]+)/;
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2', '.txt': 'text/plain' };
/** How many problems the report lists; the rest are counted. */
const MAX_LISTED = 40;
/** How many pages are open at once. */
const PARALLEL = 3;

/** The .html files of `siteDir` as site paths (`/api/index.html`), 404.html left out. */
function sitePages(siteDir) {
  const pages = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.html')) pages.push(`/${path.relative(siteDir, file).split(path.sep).join('/')}`);
    }
  };
  walk(siteDir);
  return pages.filter((page) => page !== '/404.html').sort();
}

/** `text` URL-decoded; as it is when it is no valid encoding (a stray `%`). */
function decoded(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The file a site path names (`/` and `/dir/` mean their index.html), or undefined outside `siteDir`. */
function fileOf(siteDir, pathname) {
  const relative = decoded(pathname).replace(/\/$/, '/index.html');
  const file = path.join(siteDir, relative);
  return file.startsWith(siteDir + path.sep) ? file : undefined;
}

/** A static server for `siteDir` on 127.0.0.1 at a free port: no clean URLs, 404.html for what is missing. */
async function serve(siteDir) {
  const server = http.createServer((request, response) => {
    const file = fileOf(siteDir, new URL(request.url ?? '/', 'http://localhost').pathname);
    const found = file !== undefined && fs.existsSync(file) && fs.statSync(file).isFile();
    const body = found ? fs.readFileSync(file) : fs.readFileSync(path.join(siteDir, '404.html'));
    response.writeHead(found ? 200 : 404, { 'content-type': TYPES[path.extname(found ? file : '.html')] ?? 'application/octet-stream' });
    response.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

/** The paths the repository holds (tracked or not ignored, and their folders); from the disk when it is no git work tree. */
function repoPaths(repoDir) {
  let files;
  try {
    files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: repoDir, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\0')
      .filter(Boolean);
  } catch {
    return { has: (relative, kind) => fs.existsSync(path.join(repoDir, relative)) && fs.statSync(path.join(repoDir, relative))[kind === 'tree' ? 'isDirectory' : 'isFile']() };
  }
  const dirs = new Set(files.flatMap((file) => file.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  const tracked = new Set(files);
  return { has: (relative, kind) => (kind === 'tree' ? dirs.has(relative.replace(/\/$/, '')) : tracked.has(relative)) };
}

/** Problems, each said once with how many pages it was seen on. */
function problemList() {
  const seen = new Map();
  return {
    add(message, page) {
      const entry = seen.get(message) ?? { pages: new Set() };
      entry.pages.add(page);
      seen.set(message, entry);
    },
    list() {
      return [...seen].map(([message, { pages }]) => {
        const [first] = pages;
        return pages.size === 1 ? `${first}: ${message}` : `${first} and ${pages.size - 1} other page(s): ${message}`;
      });
    },
  };
}

/** Opens `page` at `url` and returns its links, ids and text once Vue has taken the page over. */
async function visit(context, origin, pagePath, problems) {
  const page = await context.newPage();
  // the browser asks for /favicon.ico by itself; the site has none and links none
  const ours = (url) => url.startsWith(origin) && url !== `${origin}/favicon.ico`;
  page.on('console', (message) => {
    if (message.type() === 'error' && message.location().url !== `${origin}/favicon.ico`) problems.add(`console error: ${message.text().slice(0, 300)} (${message.location().url || 'no location'})`, pagePath);
  });
  page.on('pageerror', (error) => problems.add(`uncaught exception: ${String(error.message).slice(0, 300)}`, pagePath));
  page.on('requestfailed', (request) => {
    if (ours(request.url())) problems.add(`request failed: ${request.url().slice(origin.length)} (${request.failure()?.errorText})`, pagePath);
  });
  page.on('response', (response) => {
    if (ours(response.url()) && response.status() >= 400) problems.add(`request failed: ${response.url().slice(origin.length)} (HTTP ${response.status()})`, pagePath);
  });
  try {
    // generous: the root API reference, the largest page, hydrates in seconds on two busy cores
    await page.goto(origin + pagePath, { waitUntil: 'networkidle', timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector('#app')?.__vue_app__ !== undefined, undefined, { timeout: 60_000 });
    return await page.evaluate(() => ({
      links: [...document.querySelectorAll('a[href]')].map((a) => a.href),
      ids: [...document.querySelectorAll('[id]')].map((element) => element.id),
      text: document.body.innerText,
    }));
  } catch (error) {
    problems.add(`did not load: ${String(error.message).split('\n')[0]}`, pagePath);
    return { links: [], ids: [], text: '' };
  } finally {
    await page.close();
  }
}

/** Types `term` into the site's search box on `pagePath`; the titles of what it found. */
async function search(context, origin, pagePath, term) {
  const page = await context.newPage();
  try {
    await page.goto(origin + pagePath, { waitUntil: 'networkidle', timeout: 60_000 });
    await page.locator('#local-search button').click({ timeout: 30_000 });
    await page.locator('.VPLocalSearchBox input.search-input').fill(term, { timeout: 30_000 });
    const results = page.locator('.VPLocalSearchBox .results a.result');
    await results.or(page.locator('.VPLocalSearchBox .no-results')).first().waitFor({ timeout: 60_000 });
    return await results.evaluateAll((links) => links.map((link) => link.getAttribute('aria-label') ?? link.href));
  } finally {
    await page.close();
  }
}

/** Runs `work` over `items`, `parallel` at a time. */
async function eachParallel(items, parallel, work) {
  const queue = [...items];
  await Promise.all(Array.from({ length: Math.min(parallel, queue.length) }, async () => {
    while (queue.length > 0) await work(queue.shift());
  }));
}

/**
 * Checks the site in `siteDir` in Chromium.
 *
 * @param {{ siteDir: string, repoDir: string, searches: string[], chromiumPath?: string }} options
 * @returns {Promise<{ pages: number, links: number, anchors: number, repoLinks: number, searches: number, problems: string[], seconds: number }>}
 */
async function checkSite({ siteDir, repoDir, searches, chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium' }) {
  const started = Date.now();
  const root = path.resolve(siteDir);
  if (!fs.existsSync(path.join(root, 'index.html'))) throw new Error(`${root} holds no built site (no index.html): run \`npm run docs\` first`);
  if (!fs.existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath}: install it (\`apt-get install chromium\` on Debian) or set CHROMIUM_PATH`);
  const { chromium } = require('playwright-core');
  const pages = sitePages(root);
  const problems = problemList();
  const { server, origin } = await serve(root);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-check-site-'));
  const seen = new Map();
  let searched = 0;
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
    await eachParallel(pages, PARALLEL, async (pagePath) => seen.set(pagePath, await visit(context, origin, pagePath, problems)));
    const text = [...seen.values()].map((page) => page.text).join('\n');
    for (const term of searches) {
      if (!text.includes(term)) {
        problems.add(`search term "${term}" appears on no page: search for a name the docs mention`, '(search)');
        continue;
      }
      searched += 1;
      try {
        const found = await search(context, origin, pages.includes('/index.html') ? '/index.html' : pages[0], term);
        if (found.length === 0) problems.add(`the search box finds nothing for "${term}"`, '(search)');
      } catch (error) {
        problems.add(`searching for "${term}" failed: ${String(error.message).split('\n')[0]}`, '(search)');
      }
    }
  } finally {
    await context?.close();
    server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
  const counts = checkLinks(root, origin, seen, repoPaths(repoDir), problems);
  const listed = problems.list();
  return { pages: pages.length, ...counts, searches: searched, problems: listed, seconds: (Date.now() - started) / 1000 };
}

/** Checks every link the pages hold: pages and anchors of the site, paths of the repository. */
function checkLinks(root, origin, seen, repo, problems) {
  let links = 0;
  let anchors = 0;
  let repoLinks = 0;
  const ids = new Map([...seen].map(([pagePath, page]) => [pagePath, new Set(page.ids)]));
  for (const [pagePath, page] of seen) {
    for (const href of new Set(page.links)) {
      links += 1;
      const repoLink = REPO_LINK.exec(href);
      if (repoLink !== null) {
        repoLinks += 1;
        const relative = decoded(repoLink[2]);
        if (!repo.has(relative, repoLink[1])) problems.add(`link to ${repoLink[1]}/main/${relative}, which the repository does not have`, pagePath);
        continue;
      }
      if (!href.startsWith(`${origin}/`)) continue;
      const url = new URL(href);
      const target = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
      const file = fileOf(root, url.pathname);
      if (file === undefined || !fs.existsSync(file)) {
        problems.add(`link to a missing page: ${url.pathname}`, pagePath);
        continue;
      }
      if (url.hash.length > 1 && ids.has(target)) {
        anchors += 1;
        const id = decoded(url.hash.slice(1));
        if (!ids.get(target).has(id)) problems.add(`link to ${target}#${id}: no element has that id there`, pagePath);
      }
    }
  }
  return { links, anchors, repoLinks };
}

/** `--site`, `--repo`, `--search` (repeatable) from the command line. */
function parseArgs(argv) {
  const root = path.resolve(__dirname, '..');
  const options = { siteDir: path.join(root, 'site'), repoDir: root, searches: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined || !['--site', '--repo', '--search'].includes(flag)) throw new Error(`usage: check-site.js [--site DIR] [--repo DIR] [--search TERM]... (at "${flag}")`);
    if (flag === '--site') options.siteDir = path.resolve(value);
    else if (flag === '--repo') options.repoDir = path.resolve(value);
    else options.searches.push(value);
  }
  // a tool name of the docs' examples and the API's main class
  if (options.searches.length === 0) options.searches = ['get_weather', 'Toolkit'];
  return options;
}

module.exports = { checkSite };

if (require.main === module) {
  checkSite(parseArgs(process.argv.slice(2))).then(
    (result) => {
      const summary = `check-site: ${result.pages} pages, ${result.links} links (${result.anchors} anchors, ${result.repoLinks} repository links), ${result.searches} searches in ${result.seconds.toFixed(1)} s`;
      if (result.problems.length === 0) {
        process.stdout.write(`${summary}: OK\n`);
        return;
      }
      const more = result.problems.length > MAX_LISTED ? [`… and ${result.problems.length - MAX_LISTED} more`] : [];
      process.stderr.write(`${summary}: ${result.problems.length} problem(s)\n  ${[...result.problems.slice(0, MAX_LISTED), ...more].join('\n  ')}\n`);
      process.exitCode = 1;
    },
    (error) => {
      process.stderr.write(`check-site: ${error.message}\n`);
      process.exitCode = 1;
    },
  );
}
