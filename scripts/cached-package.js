'use strict';
/**
 * Packages from the npm registry that the checks need but the project does not depend on (a Node
 * binary of another major, a TypeScript release beside the project's), each installed once into
 * its own folder of the git-ignored .cache/ and reused after.
 *
 *   node scripts/cached-package.js node 24   # prints the path of a Node 24 binary
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const CACHE = path.join(root, '.cache');
/** The Node releases the checks run on, by major: the versions of the registry's node-<platform>-<arch> packages. */
const NODE_RELEASES = { 22: '22.23.3', 24: '24.21.0' };

/**
 * The folder of `name@version` installed (without its install scripts) into .cache/`folder`;
 * installs it when the folder holds no such version.
 */
function cachedPackage(name, version, folder) {
  const prefix = path.join(CACHE, folder);
  const dir = path.join(prefix, 'node_modules', ...name.split('/'));
  const installed = (() => {
    try {
      return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  })();
  if (installed === version) return dir;
  process.stderr.write(`Installing ${name}@${version} into ${path.relative(root, prefix)}…\n`);
  fs.mkdirSync(prefix, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(
    npm,
    ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', `${name}@${version}`],
    { stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' },
  );
  if (install.status !== 0 || !fs.existsSync(path.join(dir, 'package.json'))) throw new Error(`could not install ${name}@${version} (npm exit ${install.status})`);
  return dir;
}

function major(version) {
  return Number(version.replace(/^v/, '').split('.')[0]);
}

/** A binary of Node `wanted` (a major of NODE_RELEASES): this process's own when it is that major, else the cached registry package. */
function nodeBinary(wanted) {
  if (major(process.version) === wanted) return process.execPath;
  const version = NODE_RELEASES[wanted];
  if (version === undefined) throw new Error(`no Node ${wanted} release configured (have: ${Object.keys(NODE_RELEASES).join(', ')})`);
  const pkg = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  const dir = cachedPackage(pkg, version, `node${wanted}`);
  const binary = path.join(dir, process.platform === 'win32' ? 'node.exe' : path.join('bin', 'node'));
  if (!fs.existsSync(binary)) throw new Error(`${pkg}@${version} has no ${path.relative(dir, binary)}`);
  return binary;
}

module.exports = { cachedPackage, nodeBinary, major };

if (require.main === module) {
  const [kind, wanted] = process.argv.slice(2);
  if (kind !== 'node' || !/^\d+$/.test(wanted ?? '')) {
    process.stderr.write('usage: node scripts/cached-package.js node <major>\n');
    process.exitCode = 2;
  } else {
    process.stdout.write(`${nodeBinary(Number(wanted))}\n`);
  }
}
