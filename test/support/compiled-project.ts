import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from './child-process';

/** Compiles `src/` file by file into `out` as the build does: CommonJS, legacy decorators with metadata. */
export function compileSources(out: string): void {
  const compilerOptions: ts.CompilerOptions = {
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2022,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    esModuleInterop: true,
  };
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const target = path.join(out, path.relative(path.join(ROOT, 'src'), file)).replace(/\.ts$/, '.js');
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, ts.transpileModule(fs.readFileSync(file, 'utf8'), { compilerOptions, fileName: file }).outputText);
      }
    }
  };
  visit(path.join(ROOT, 'src'));
}

/**
 * A project holding the compiled `dist/` and links to this repository's packages, except `without`
 * (the packages a test leaves out or links to another release).
 */
export function makeProject(dir: string, dist: string, without: readonly string[]): string {
  linkPackages(dir, without);
  fs.cpSync(dist, path.join(dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: path.basename(dir), private: true }));
  return dir;
}

/** `dir`/node_modules holding links to this repository's packages, except `without`; returns its path. */
export function linkPackages(dir: string, without: readonly string[] = []): string {
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry.startsWith('.') || without.includes(entry)) continue;
    fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  return modules;
}

/** What a build of the package reads besides `src/`. */
const BUILD_INPUTS = ['package.json', 'tsconfig.json', 'tsconfig.build.json'];

/**
 * toolwright as a project installs it: a folder holding package.json and `dist/`, built from `src/`
 * as `npm run build` builds it (tsc with tsconfig.build.json: CommonJS, one declaration file per
 * module, which the published package rolls up per entry point). Built once per state of the
 * sources and kept in the git-ignored `.cache/package-build/` under a hash of them; its packages
 * resolve from this repository's node_modules.
 */
export function packageBuild(): string {
  const hash = createHash('sha256');
  const sources = fs.readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).map((name) => path.join('src', name));
  for (const file of [...BUILD_INPUTS, ...sources.sort()]) {
    if (fs.statSync(path.join(ROOT, file)).isFile()) hash.update(`${file}\0`).update(fs.readFileSync(path.join(ROOT, file))).update('\0');
  }
  const cache = path.join(ROOT, '.cache', 'package-build');
  const built = path.join(cache, hash.digest('hex').slice(0, 16));
  if (fs.existsSync(path.join(built, 'package.json'))) return built;
  // built beside the cache entry and renamed into place, so that a concurrent run never sees half a build
  const work = `${built}.${process.pid}`;
  fs.rmSync(work, { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', path.join(work, 'dist')], { encoding: 'utf8' });
  if (tsc.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed (exit ${String(tsc.status)}):\n${tsc.stdout}${tsc.stderr}`);
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(work, 'package.json'));
  for (const stale of fs.readdirSync(cache)) if (/^[0-9a-f]{16}$/.test(stale) && stale !== path.basename(built)) fs.rmSync(path.join(cache, stale), { recursive: true, force: true });
  try {
    fs.renameSync(work, built);
  } catch (error) {
    // another run built the same sources first
    fs.rmSync(work, { recursive: true, force: true });
    if (!fs.existsSync(path.join(built, 'package.json'))) throw error;
  }
  return built;
}

/** What a `node` child printed and how it ended. */
export interface NodeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node args…` in `cwd` with no NODE_PATH, so only the project's node_modules resolve. */
export function runNode(cwd: string, args: readonly string[]): Promise<NodeRun> {
  const env = { ...process.env };
  delete env.NODE_PATH;
  return new Promise((resolve) => {
    const child = execFile(process.execPath, args, { cwd, env, timeout: 60_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}
