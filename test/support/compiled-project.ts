import { execFile } from 'node:child_process';
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
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry.startsWith('.') || without.includes(entry)) continue;
    fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  fs.cpSync(dist, path.join(dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: path.basename(dir), private: true }));
  return dir;
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
