import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../support/child-process';

/**
 * `toolwright list` in real child processes (the CLI's TypeScript source compiled on the fly by
 * scripts/swc-register.js, which also lets it load the .ts fixture) against fixture modules.
 */
const CLI = 'src/build/toolwright-cli.ts';
const FIXTURES = join('test', 'observability', 'fixtures');
const SECRET_KEY = 'sk-cli-fixture-9f8e7d6c5b4a';

function toolwright(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['-r', './scripts/swc-register.js', CLI, ...args], { cwd: ROOT, timeout: 30_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

describe('toolwright list', () => {
  it('prints the tools with group and availability, the groups and the skills', async () => {
    const run = await toolwright('list', join(FIXTURES, 'cli-toolkit.ts'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Tools \(5\):$/m);
    expect(run.stdout).toMatch(/^ {2}get_weather +weather +enabled +Get the weather of a city$/m);
    expect(run.stdout).toMatch(/^ {2}reset_cache +admin +disabled \(group admin is off\) +Empty every cache$/m);
    expect(run.stdout).toMatch(/^ {2}echo +- +enabled +Echo the text back$/m);
    expect(run.stdout).toMatch(/^ {2}list_skills +- +enabled \(meta tool\)/m);
    expect(run.stdout).toMatch(/^Groups \(2\):\n {2}weather +active +Weather tools\n {2}admin +inactive +Administration$/m);
    expect(run.stdout).toMatch(/^Skills \(1\):\n {2}forecast +tools: get_weather +Forecasts for a trip$/m);
  }, 30_000);

  it('--json prints the full definitions with their JSON Schemas, presets absent', async () => {
    const run = await toolwright('list', join(FIXTURES, 'cli-toolkit.ts'), '--json');
    expect(run.code).toBe(0);
    const listing = JSON.parse(run.stdout) as { tools: { name: string; parameters: { properties: Record<string, unknown> }; behaviour?: Record<string, unknown> }[] };
    const weather = listing.tools.find((t) => t.name === 'get_weather')!;
    expect(weather).toMatchObject({ group: 'weather', availability: 'enabled', behaviour: { annotations: { readOnly: true } } });
    expect(Object.keys(weather.parameters.properties)).toEqual(['city']);
    expect(run.stdout).not.toContain('apiKey');
    expect(run.stdout).not.toContain(SECRET_KEY);
  }, 30_000);

  it('loads an ES module whose default export is an async factory', async () => {
    const run = await toolwright('list', join(FIXTURES, 'cli-esm-toolkit.mjs'), '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ tools: [{ name: 'ping', availability: 'enabled', parameters: { type: 'object' } }], groups: [], skills: [] });
  }, 30_000);

  it('exits 1 with a clear error for a missing module, or one that exports no toolkit', async () => {
    const missing = await toolwright('list', 'no/such/module.js');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^toolwright: cannot find module no\/such\/module\.js \(looked for .*no\/such\/module\.js\)\n$/);
    const none = await toolwright('list', join(FIXTURES, 'cli-no-toolkit.js'));
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/exports no toolkit \(tried toolkit, default, module\.exports\): export one/);
    const named = await toolwright('list', join(FIXTURES, 'cli-no-toolkit.js'), '--export', 'answer');
    expect(named.code).toBe(1);
    expect(named.stderr).toMatch(/exports no toolkit \(tried answer\)/);
  }, 30_000);

  it('exits 2 with usage for a missing or unknown command or option; 0 for --help', async () => {
    const bare = await toolwright();
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^Usage: toolwright list <module>/);
    const unknown = await toolwright('lst', 'x.js');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command lst/);
    const noModule = await toolwright('list', '--json');
    expect(noModule.code).toBe(2);
    expect(noModule.stderr).toMatch(/list needs the module that exports the toolkit/);
    const help = await toolwright('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: toolwright list/);
  }, 30_000);
});
