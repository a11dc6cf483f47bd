import { runTypeScript } from '../support/child-process';

describe('npm start (the demo)', () => {
  it('runs the scripted agent loop end to end', async () => {
    const run = await runTypeScript('examples/demo/demo.ts');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("INVALID_ARGUMENTS: Invalid arguments for tool 'send_email'");
    // the rejected call is shown with its arguments before its error, the guessed apiKey redacted
    const rejected = run.stdout.indexOf('"to":"ada(at)example.com"');
    expect(rejected).toBeGreaterThan(-1);
    expect(rejected).toBeLessThan(run.stdout.indexOf('INVALID_ARGUMENTS'));
    expect(run.stdout).toContain('"apiKey":"[REDACTED]"');
    expect(run.stdout).not.toContain('sk-guess');
    expect(run.stdout).toContain('TOOL_DISABLED');
    expect(run.stdout).toContain("Feature flag 'beta-search' is now on.");
    expect(run.stdout).not.toContain('sk-demo-0123456789');
  });
});
