import 'reflect-metadata';
import { userResult } from '../../src';
import { RESULT_WITHHELD, createGuardrailHook } from '../../src';
import { FileService, RunLog, loggedTool } from '../support/logged-tools';
import { freshToolkit, toolCall } from '../support/toolkit';

function files() {
  FileService.runs = [];
  const toolkit = freshToolkit();
  toolkit.registerTool(FileService);
  return toolkit;
}

describe('createGuardrailHook: arguments', () => {
  it('a blocking guardrail denies the call with a reason the model can act on; the tool does not run', async () => {
    const toolkit = files().use(
      createGuardrailHook({
        input: [
          {
            name: 'no-system-paths',
            check: (ctx) => (String(ctx.arguments.path).startsWith('/etc') ? { block: 'system paths are off limits; use a path under /tmp' } : undefined),
          },
        ],
      }),
    );
    const denied = await toolkit.callTool(toolCall('delete_file', { path: '/etc/passwd' }));
    expect(denied).toMatchObject({ isError: true, error: { code: 'DENIED' } });
    expect(denied.forLLM).toBe("Tool 'delete_file' was denied: guardrail 'no-system-paths' blocked it: system paths are off limits; use a path under /tmp");
    const allowed = await toolkit.callTool(toolCall('delete_file', { path: '/tmp/x' }));
    expect(allowed.forLLM).toBe('deleted /tmp/x');
    expect(FileService.runs).toEqual([{ tool: 'delete_file', path: '/tmp/x' }]);
  });

  it('rewrites and redactions change the arguments the tool gets, in order', async () => {
    const seen: unknown[] = [];
    const toolkit = files().use(
      createGuardrailHook({
        input: [
          { name: 'normalise', check: (ctx) => ({ rewrite: { ...ctx.arguments, path: String(ctx.arguments.path).toLowerCase() } }) },
          (ctx) => {
            seen.push(ctx.arguments.path);
            return { redact: (text) => text.replace(/\d{3}-\d{2}-\d{4}/g, '[SSN]') };
          },
        ],
      }),
    );
    const result = await toolkit.callTool(toolCall('write_file', { path: '/TMP/Notes', text: 'ssn 123-45-6789' }));
    expect(seen).toEqual(['/tmp/notes']);
    expect(result.forLLM).toBe(`wrote ${'ssn [SSN]'.length} characters to /tmp/notes`);
  });

  it('rewritten arguments are validated again', async () => {
    const toolkit = files().use(createGuardrailHook({ input: [{ name: 'broken', check: () => ({ rewrite: { path: 42 } }) }] }));
    const result = await toolkit.callTool(toolCall('read_file', { path: 'a' }));
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(FileService.runs).toEqual([]);
  });

  it('the first block wins; async guardrails work; bare functions are named by position', async () => {
    const toolkit = files().use(
      createGuardrailHook({
        input: [() => undefined, () => Promise.resolve({ block: 'second' }), () => ({ block: 'third' })],
      }),
    );
    const result = await toolkit.callTool(toolCall('read_file', { path: 'a' }));
    expect(result.forLLM).toContain("guardrail 'input[1]' blocked it: second");
    expect(FileService.runs).toEqual([]);
  });

  it('a guardrail that throws fails the call closed (HOOK_FAILED)', async () => {
    const toolkit = files().use(
      createGuardrailHook({
        name: 'policy',
        input: [
          {
            name: 'remote-check',
            check: () => {
              throw new Error('policy service unreachable');
            },
          },
        ],
      }),
    );
    const result = await toolkit.callTool(toolCall('read_file', { path: 'a' }));
    expect(result.error?.code).toBe('HOOK_FAILED');
    expect(result.forLLM).toContain('policy service unreachable');
    expect(FileService.runs).toEqual([]);
  });
});

describe('createGuardrailHook: results', () => {
  it('a blocking guardrail withholds the result: an error result that says the tool ran', async () => {
    const toolkit = files().use(
      createGuardrailHook({
        output: [{ name: 'no-secrets', check: (result) => (result.forLLM.includes('shadow') ? { block: 'it may contain password hashes' } : undefined) }],
      }),
    );
    const call = toolCall('read_file', { path: '/etc/shadow' });
    const result = await toolkit.callTool(call);
    expect(result).toMatchObject({ isError: true, toolCallId: call.id, name: 'read_file', error: { code: RESULT_WITHHELD } });
    expect(result.forLLM).toBe("Tool 'read_file' ran, but guardrail 'no-secrets' withheld its result: it may contain password hashes");
    expect(FileService.runs).toHaveLength(1);
  });

  it('redacts every text of the result: forLLM, forUser, error message and data', async () => {
    const log = new RunLog();
    const toolkit = freshToolkit();
    toolkit.registerTool(loggedTool(log, 'profile', { respond: () => ({ ...userResult('card 4111 1111 1111 1111'), data: { card: '4111 1111 1111 1111', n: 1 } }) }));
    toolkit.registerTool(
      loggedTool(log, 'fail', {
        respond: () => {
          throw new Error('card 4111 1111 1111 1111 declined');
        },
      }),
    );
    const cards = /\b\d{4}(?:[ -]?\d{4}){3}\b/g;
    toolkit.use(createGuardrailHook({ output: [{ name: 'cards', check: () => ({ redact: (text) => text.replace(cards, '[CARD]') }) }] }));

    const ok = await toolkit.callTool(toolCall('profile'));
    expect(ok).toMatchObject({ forLLM: 'card [CARD]', forUser: 'card [CARD]', data: { card: '[CARD]', n: 1 }, isError: false });
    const failed = await toolkit.callTool(toolCall('fail'));
    expect(failed.forLLM).toContain('[CARD] declined');
    expect(failed.error?.message).toBe(failed.forLLM);
  });

  it('replaces a result, and later guardrails see the replacement', async () => {
    const seen: string[] = [];
    const toolkit = files().use(
      createGuardrailHook({
        output: [
          { name: 'summarise', check: (result) => ({ replace: { ...result, forLLM: `summary: ${result.forLLM.length} chars` } }) },
          { name: 'watch', check: (result) => void seen.push(result.forLLM) },
        ],
      }),
    );
    const result = await toolkit.callTool(toolCall('read_file', { path: 'abc' }));
    expect(result.forLLM).toBe('summary: 15 chars');
    expect(seen).toEqual(['summary: 15 chars']);
  });

  it('leaves results alone when no guardrail objects', async () => {
    const toolkit = files().use(createGuardrailHook({ output: [() => undefined] }));
    expect((await toolkit.callTool(toolCall('read_file', { path: 'x' }))).forLLM).toBe('contents of x');
  });
});
