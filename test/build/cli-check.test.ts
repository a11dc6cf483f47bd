import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/build/toolwright-schema-cli';

/**
 * `toolwright-schema --check` on bad input: a source file with a definition problem, and a
 * manifest on disk that is not one. Each exits 1 with a line that says what is wrong, and leaves
 * the file on disk as it was.
 */
const DECORATORS = `export function Tool(_options?: { description?: string }): MethodDecorator { return () => undefined; }\n`;
const CLOCK = `import { Tool } from './decorators';\n\nexport class Clock {\n  /** The time in a zone. @param zone an IANA zone */\n  @Tool()\n  now(zone: string): string {\n    return zone;\n  }\n}\n`;
const UNEXPORTED = `import { Tool } from './decorators';\n\nclass Secret {\n  @Tool({ description: 'Hidden' })\n  reveal(): string {\n    return '';\n  }\n}\nexport const secret = new Secret();\n`;

let dir: string;

function check(files: string[], out: string): { code: number; stderr: string } {
  let stderr = '';
  const code = main([...files, '-o', out, '--check'], { cwd: dir, stderrIsTTY: false, stdout: () => undefined, stderr: (text) => (stderr += text) });
  return { code, stderr };
}

/** Writes `text` to `file` in the project and returns what `check` must leave there. */
function onDisk(file: string, text: string): () => string {
  fs.writeFileSync(path.join(dir, file), text);
  return () => fs.readFileSync(path.join(dir, file), 'utf8');
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-cli-check-'));
  fs.writeFileSync(path.join(dir, 'decorators.ts'), DECORATORS);
  fs.writeFileSync(path.join(dir, 'clock.ts'), CLOCK);
  fs.writeFileSync(path.join(dir, 'secret.ts'), UNEXPORTED);
  // the up-to-date manifest of clock.ts alone
  expect(main(['clock.ts', '-o', 'clock.json'], { cwd: dir, stderr: () => undefined })).toBe(0);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a source file with a definition problem fails the check, even when the rest of the manifest is up to date', () => {
  const manifest = fs.readFileSync(path.join(dir, 'clock.json'), 'utf8');
  const result = check(['clock.ts', 'secret.ts'], 'clock.json');
  expect(result.code).toBe(1);
  expect(result.stderr.trimEnd().split('\n')).toEqual([
    expect.stringMatching(/^toolwright-schema: secret\.ts:3:7: class Secret has @Tool methods but is not exported\./),
    'toolwright-schema: 1 problem: the files named above are left out of the check (the rest of clock.json is up to date)',
  ]);
  expect(fs.readFileSync(path.join(dir, 'clock.json'), 'utf8')).toBe(manifest);
});

test.each([
  ['not JSON at all', 'bad.json', '{ "version": 1, "classes": {', 'the file on disk is not valid JSON'],
  ['JSON, but not a manifest', 'array.json', '[1, 2, 3]\n', 'the file on disk is not a toolwright manifest'],
  ['a TypeScript module that is not a manifest module', 'bad.ts', 'export const manifest = 42;\n', 'the file on disk is not a manifest module'],
])('a manifest file that is %s: exit 1, says so and how to regenerate, and is left as it was', (_what, file, text, line) => {
  const left = onDisk(file, text);
  const result = check(['clock.ts'], file);
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(`toolwright-schema: ${file} is out of date:\n  ${line}\nRun \`toolwright-schema clock.ts -o ${file}\` to update it.\n`);
  expect(left()).toBe(text);
});
