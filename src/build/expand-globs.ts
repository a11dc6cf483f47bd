import * as fs from 'node:fs';
import * as path from 'node:path';
import { escapePath, globSync, isDynamicPattern } from 'tinyglobby';
import { ToolkitError } from '../errors';

const TS_SOURCE = /\.(ts|tsx|mts|cts)$/;
const TS_DECLARATION = /\.d\.(ts|mts|cts)$/;
const NODE_MODULES = '**/node_modules/**';

/** The `NO_MATCHING_FILES` error {@link expandGlobs} throws when a path or pattern names no TypeScript source file. */
function noMatch(message: string): ToolkitError {
  return new ToolkitError('NO_MATCHING_FILES', message);
}

/** True for `.ts`/`.tsx`/`.mts`/`.cts` files that are not declaration files. */
export function isTypeScriptSource(fileName: string): boolean {
  return TS_SOURCE.test(fileName) && !TS_DECLARATION.test(fileName);
}

/**
 * The files a glob matches, as absolute paths. Wildcards skip dot directories and, unless the
 * pattern names `node_modules` itself, `node_modules`.
 */
function match(pattern: string, cwd: string): string[] {
  return globSync(pattern, {
    cwd,
    absolute: true,
    onlyFiles: true,
    dot: false,
    expandDirectories: false,
    ignore: pattern.includes('node_modules') ? [] : [NODE_MODULES],
  });
}

/**
 * Expands file paths, directories and globs (tinyglobby: `*`, `?`, `**`, `{a,b/c}`, `[xy]`…)
 * relative to `cwd` into a sorted list of absolute TypeScript source paths (declaration files
 * excluded). A directory stands for every source file under it. Wildcards skip `node_modules`
 * and dot directories unless the pattern names them.
 *
 * @example expandGlobs(['src/{services,admin/services}/*.ts'], process.cwd())
 * @throws ToolkitError `NO_MATCHING_FILES` when a path does not exist or a pattern matches no source file.
 */
export function expandGlobs(patterns: readonly string[], cwd: string): string[] {
  const result = new Set<string>();
  for (const raw of patterns) {
    let found: string[];
    // A path that exists is taken literally, even when its name holds glob characters (`[id].ts`).
    if (!isDynamicPattern(raw) || fs.existsSync(path.resolve(cwd, raw))) {
      const absolute = path.resolve(cwd, raw);
      if (!fs.existsSync(absolute)) throw noMatch(`no such file or directory: ${raw}`);
      if (fs.statSync(absolute).isDirectory()) {
        found = match(`${escapePath(absolute.split(path.sep).join('/'))}/**/*`, cwd);
      } else {
        if (!isTypeScriptSource(absolute)) throw noMatch(`not a TypeScript source file: ${raw}`);
        found = [absolute];
      }
    } else {
      found = match(raw.split(path.sep).join('/'), cwd);
    }
    const sources = found.filter(isTypeScriptSource);
    if (sources.length === 0) throw noMatch(`no TypeScript source file matches ${raw}`);
    for (const file of sources) result.add(path.resolve(file));
  }
  return [...result].sort();
}
