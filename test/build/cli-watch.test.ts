import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../support/child-process';
import { writeProject } from '../support/project-files';

/**
 * `toolwright-schema --watch` in a real child process: it regenerates when a source file or a
 * file it imports changes, writes only when the manifest's text changes, and on a problem prints
 * it and keeps the last good manifest and running. Each step polls the file or stderr (bounds
 * for a loaded machine, not sleeps as proof).
 */
jest.setTimeout(180_000);
const STEP_MS = 60_000;

const STUB = `
export function Tool(_options?: { name?: string; description?: string }): MethodDecorator { return () => undefined; }
`;
const greeter = (extra: string): string => `
import { Tool } from '../stub';
import type { Style } from '../types/style';

export class Greeter {
  /** Greet someone. */
  @Tool()
  greet(name: string, style: Style${extra}): string {
    return name + style;
  }
}
`;

let dir: string;
let child: ChildProcess;
let stderr = '';

beforeAll(() => {
  dir = writeProject('toolwright-watch-', {
    'src/stub.ts': STUB,
    'src/tools/greeter.ts': greeter(''),
    'src/types/style.ts': "export type Style = 'formal' | 'casual';\n",
  });
  const cli = path.join(ROOT, 'src/build/toolwright-schema-cli.ts');
  child = spawn(process.execPath, ['-r', path.join(ROOT, 'scripts/swc-register.js'), cli, 'src/tools/*.ts', '-o', 'tools.manifest.json', '--watch'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
});

afterAll(() => {
  child.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Polls until `check` returns a value (not undefined), or fails naming what was awaited and what stderr said. */
async function until<T>(what: string, check: () => T | undefined): Promise<T> {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (child.exitCode !== null) throw new Error(`the watcher exited (${child.exitCode}) while waiting for ${what}:\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`no ${what} within ${STEP_MS} ms:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The greet method's parameters in the manifest on disk, once it holds `expected` names. */
function paramsOnDisk(): { name: string; schema: unknown }[] | undefined {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'tools.manifest.json'), 'utf8')) as {
      classes: Record<string, { methods: Record<string, { params: { name: string; schema: unknown }[] }> }>;
    };
    return manifest.classes.Greeter?.methods.greet?.params;
  } catch {
    return undefined; // not written yet, or being written
  }
}

function edit(file: string, text: string): void {
  fs.writeFileSync(path.join(dir, file), text);
}

it('regenerates on a change of a source and of a file it imports; on a problem it prints it, keeps the manifest and goes on', async () => {
  const first = await until('first manifest', () => paramsOnDisk());
  expect(first.map((p) => p.name)).toEqual(['name', 'style']);
  await until('the watching line', () => (stderr.includes('watching the sources of tools.manifest.json') ? true : undefined));

  // a source named on the command line
  edit('src/tools/greeter.ts', greeter(', times: number'));
  const second = await until('a third parameter', () => (paramsOnDisk()?.length === 3 ? paramsOnDisk() : undefined));
  expect(second[2]).toEqual(expect.objectContaining({ name: 'times', schema: { type: 'number' } }));

  // a file it imports, in another folder
  edit('src/types/style.ts', "export type Style = 'formal' | 'casual' | 'pirate';\n");
  await until('the new style', () => (JSON.stringify(paramsOnDisk()?.[1]?.schema).includes('pirate') ? true : undefined));

  // a change that leaves the manifest as it is: nothing written
  const written = fs.statSync(path.join(dir, 'tools.manifest.json')).mtimeMs;
  const before = stderr.length;
  edit('src/tools/greeter.ts', `// a comment\n${greeter(', times: number')}`);
  await until('an unchanged line', () => (stderr.slice(before).includes('unchanged tools.manifest.json') ? true : undefined));
  expect(fs.statSync(path.join(dir, 'tools.manifest.json')).mtimeMs).toBe(written);

  // a type that does not resolve: printed, the last good manifest kept, still running
  const good = fs.readFileSync(path.join(dir, 'tools.manifest.json'), 'utf8');
  const broken = stderr.length;
  edit('src/tools/greeter.ts', greeter(", times: number, when: import('./nowhere').When"));
  const problem = await until('the problem', () => (stderr.slice(broken).includes('kept as it was') ? stderr.slice(broken) : undefined));
  expect(problem).toContain('Greeter.greet');
  expect(problem).toContain('when');
  expect(child.exitCode).toBeNull();
  expect(fs.readFileSync(path.join(dir, 'tools.manifest.json'), 'utf8')).toBe(good);

  // fixed: regenerated
  edit('src/tools/greeter.ts', greeter(', times: number, loud: boolean'));
  const fixed = await until('the fixed manifest', () => (paramsOnDisk()?.length === 4 ? paramsOnDisk() : undefined));
  expect(fixed[3]).toEqual(expect.objectContaining({ name: 'loud', schema: { type: 'boolean' } }));
});
