import * as fs from 'node:fs';
import * as path from 'node:path';
import { ToolkitError } from '../errors';

const GLOB_CHARS = /[*?{]/;
const TS_SOURCE = /\.(ts|tsx|mts|cts)$/;
const TS_DECLARATION = /\.d\.(ts|mts|cts)$/;

/** The `NO_MATCHING_FILES` error {@link expandGlobs} throws when a path or pattern names no TypeScript source file. */
function noMatch(message: string): ToolkitError {
  return new ToolkitError('NO_MATCHING_FILES', message);
}

/** True for `.ts`/`.tsx`/`.mts`/`.cts` files that are not declaration files. */
export function isTypeScriptSource(fileName: string): boolean {
  return TS_SOURCE.test(fileName) && !TS_DECLARATION.test(fileName);
}

/** Turns one path segment with `*`, `?` and `{a,b}` into an anchored regular expression. */
function segmentPattern(segment: string): RegExp {
  let source = '';
  let braces = 0;
  for (const char of segment) {
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') {
      braces += 1;
      source += '(?:';
    } else if (char === '}' && braces > 0) {
      braces -= 1;
      source += ')';
    } else if (char === ',' && braces > 0) source += '|';
    else source += char.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function readDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Directories a wildcard never descends into unless the pattern names them literally. */
function isHiddenOrVendored(name: string): boolean {
  return name === 'node_modules' || name.startsWith('.');
}

function isDirectory(entry: fs.Dirent, dir: string): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return fs.statSync(path.join(dir, entry.name)).isDirectory();
  } catch {
    return false;
  }
}

function walk(dir: string, segments: readonly string[], out: Set<string>): void {
  if (segments.length === 0) return;
  const [segment, ...rest] = segments as [string, ...string[]];
  if (segment === '**') {
    walk(dir, rest, out); // `**` matches zero directories…
    for (const entry of readDir(dir)) {
      if (isDirectory(entry, dir) && !isHiddenOrVendored(entry.name)) walk(path.join(dir, entry.name), segments, out);
    }
    return;
  }
  if (!GLOB_CHARS.test(segment)) {
    const next = path.join(dir, segment);
    if (rest.length === 0) {
      if (fs.existsSync(next) && fs.statSync(next).isFile()) out.add(next);
    } else {
      walk(next, rest, out);
    }
    return;
  }
  const pattern = segmentPattern(segment);
  for (const entry of readDir(dir)) {
    if (!pattern.test(entry.name)) continue;
    if (rest.length === 0) {
      if (entry.isFile() || (entry.isSymbolicLink() && !isDirectory(entry, dir))) out.add(path.join(dir, entry.name));
    } else if (isDirectory(entry, dir) && !(isHiddenOrVendored(entry.name) && !segment.startsWith('.'))) {
      walk(path.join(dir, entry.name), rest, out);
    }
  }
}

function walkAll(dir: string, out: Set<string>): void {
  walk(dir, ['**', '*'], out);
}

/**
 * Expands file paths, directories and simple globs (`*`, `?`, `**`, `{a,b}`) relative to `cwd`
 * into a sorted list of absolute TypeScript source paths (declaration files excluded). A
 * directory stands for every source file under it. Wildcards skip `node_modules` and dot
 * directories.
 *
 * @example expandGlobs(['src/services/**\/*.service.ts'], process.cwd())
 * @throws ToolkitError `NO_MATCHING_FILES` when a path does not exist or a pattern matches no source file.
 */
export function expandGlobs(patterns: readonly string[], cwd: string): string[] {
  const result = new Set<string>();
  for (const raw of patterns) {
    const pattern = raw.split(path.sep).join('/');
    const found = new Set<string>();
    if (!GLOB_CHARS.test(pattern)) {
      const absolute = path.resolve(cwd, raw);
      if (!fs.existsSync(absolute)) throw noMatch(`no such file or directory: ${raw}`);
      if (fs.statSync(absolute).isDirectory()) {
        walkAll(absolute, found);
      } else {
        if (!isTypeScriptSource(absolute)) throw noMatch(`not a TypeScript source file: ${raw}`);
        found.add(absolute);
      }
    } else {
      const absolute = path.resolve(cwd, pattern).split(path.sep).join('/');
      const segments = absolute.split('/');
      const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
      const base = segments.slice(0, firstGlob).join('/') || '/';
      walk(path.resolve(base), segments.slice(firstGlob), found);
    }
    const sources = [...found].filter(isTypeScriptSource);
    if (sources.length === 0) throw noMatch(`no TypeScript source file matches ${raw}`);
    for (const file of sources) result.add(path.resolve(file));
  }
  return [...result].sort();
}
