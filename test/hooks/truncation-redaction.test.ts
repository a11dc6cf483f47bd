import 'reflect-metadata';
import { ToolkitError, userResult } from '../../src';
import { truncateText } from '../../src/executor/call/convert';
import { SECRET_PATTERNS, createRedactionHook, createRedactor, createTruncationHook } from '../../src';
import { RunLog, loggedTool } from '../support/logged-tools';
import { freshToolkit, toolCall } from '../support/toolkit';

const long = Array.from({ length: 200 }, (_, i) => `line ${String(i).padStart(3, '0')}`).join('\n');

function textToolkit(text: string | (() => unknown)) {
  const log = new RunLog();
  const toolkit = freshToolkit();
  toolkit.registerTool(loggedTool(log, 'dump', { respond: typeof text === 'function' ? text : () => userResult(text) }));
  return toolkit;
}

describe('createTruncationHook', () => {
  it('keeps the head and the tail of long results, with a note saying how much was cut', async () => {
    const toolkit = textToolkit(long).use(createTruncationHook({ maxResultChars: 300 }));
    const result = await toolkit.callTool(toolCall('dump'));
    expect(result.forLLM.length).toBeLessThanOrEqual(300);
    expect(result.forLLM.startsWith('line 000\nline 001')).toBe(true);
    expect(result.forLLM.endsWith('line 199')).toBe(true);
    const cut = /\[… (\d+) characters truncated …\]/.exec(result.forLLM);
    expect(cut).not.toBeNull();
    expect(Number(cut![1]) + result.forLLM.length - cut![0].length - 2).toBe(long.length);
    expect(result.forLLM).toBe(truncateText(long, 300)); // the executor's own cut, not a copy of it
    expect(result.forUser).toBe(long); // users see the full text unless asked otherwise
  });

  it('cuts forUser too when asked', async () => {
    const toolkit = textToolkit(long).use(createTruncationHook({ maxResultChars: 300, includeUserText: true }));
    const result = await toolkit.callTool(toolCall('dump'));
    expect(result.forUser!.length).toBeLessThanOrEqual(300);
  });

  it('chooses the limit per call: per session here', async () => {
    const toolkit = textToolkit(long).use(createTruncationHook({ maxResultChars: (ctx) => (ctx.sessionId === 'small-model' ? 200 : undefined) }));
    const small = await toolkit.session('small-model').callTool(toolCall('dump'));
    const big = await toolkit.session('big-model').callTool(toolCall('dump'));
    expect(small.forLLM.length).toBeLessThanOrEqual(200);
    expect(big.forLLM).toBe(long);
  });

  it('leaves short results as they are', async () => {
    const toolkit = textToolkit('short').use(createTruncationHook({ maxResultChars: 300 }));
    expect((await toolkit.callTool(toolCall('dump'))).forLLM).toBe('short');
  });

  it('rejects a bad fixed limit at once, and a bad chosen limit as HOOK_FAILED', async () => {
    expect(() => createTruncationHook({ maxResultChars: -1 })).toThrow(ToolkitError);
    expect(() => createTruncationHook({ maxResultChars: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    const toolkit = textToolkit(long).use(createTruncationHook({ maxResultChars: () => 1.5 }));
    const result = await toolkit.callTool(toolCall('dump'));
    expect(result.error?.code).toBe('HOOK_FAILED');
    expect(result.forLLM).toContain('maxResultChars must be a whole number');
  });
});

describe('createRedactor', () => {
  it('matches the common secret shapes', () => {
    const samples: Record<keyof typeof SECRET_PATTERNS, string> = {
      email: 'ada.lovelace+ai@example.co.uk',
      openAiKey: 'sk-proj-AbCdEf0123456789xyzXYZ',
      awsAccessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      githubToken: `ghp_${'a1B2'.repeat(9)}`,
      slackToken: 'xoxb-1234567890-abcdefghij',
      jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      bearerToken: 'abcdef123456.ghijkl',
      privateKey: '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----',
    };
    for (const [name, secret] of Object.entries(samples)) {
      const redactor = createRedactor({ patterns: [SECRET_PATTERNS[name as keyof typeof SECRET_PATTERNS]] });
      const text = name === 'bearerToken' ? `Authorization: Bearer ${secret}` : `before ${secret} after`;
      expect({ name, out: redactor.text(text) }).toEqual({
        name,
        out: name === 'bearerToken' ? 'Authorization: Bearer [REDACTED]' : 'before [REDACTED] after',
      });
    }
  });

  it('adds the global flag, replaces literal secrets (ignoring very short ones), and is stable across calls', () => {
    const redactor = createRedactor({ patterns: [/acct-\d+/], secrets: ['hunter22', 'ab'], replacement: '***' });
    expect(redactor.text('acct-1 acct-2 hunter22 ab')).toBe('*** *** *** ab');
    expect(redactor.text('acct-3')).toBe('***');
    expect(redactor.text('x', ['per-call-secret'])).toBe('x');
    expect(redactor.text('per-call-secret', ['per-call-secret'])).toBe('***');
  });

  it('redacts values deeply, returning the same object when clean', () => {
    const redactor = createRedactor({ patterns: [SECRET_PATTERNS.email] });
    class Card {
      constructor(readonly owner: string) {}
    }
    const clean = { a: [1, 'x', { b: null }] };
    expect(redactor.value(clean)).toBe(clean);
    expect(redactor.value({ a: ['mail ada@example.com'], card: new Card('ada@example.com'), ok: new Card('ada') })).toEqual({
      a: ['mail [REDACTED]'],
      card: '[REDACTED]',
      ok: new Card('ada'),
    });
  });
});

describe('createRedactionHook', () => {
  it('scrubs configured patterns from forLLM, forUser, error messages and data', async () => {
    const log = new RunLog();
    const toolkit = freshToolkit();
    toolkit.registerTool(loggedTool(log, 'lookup', { respond: () => ({ ...userResult('owner: ada@example.com'), data: { owner: 'ada@example.com', key: 'sk-live-0123456789abcdefXYZ' } }) }));
    toolkit.registerTool(
      loggedTool(log, 'broken', {
        respond: () => {
          throw new Error('auth failed for key sk-live-0123456789abcdefXYZ');
        },
      }),
    );
    toolkit.use(createRedactionHook({ patterns: [SECRET_PATTERNS.email, SECRET_PATTERNS.openAiKey] }));

    const ok = await toolkit.callTool(toolCall('lookup'));
    expect(ok).toMatchObject({ forLLM: 'owner: [REDACTED]', forUser: 'owner: [REDACTED]', data: { owner: '[REDACTED]', key: '[REDACTED]' } });
    const failed = await toolkit.callTool(toolCall('broken'));
    expect(failed.forLLM).toBe("Tool 'broken' failed: auth failed for key [REDACTED]");
    expect(failed.error).toEqual({ code: 'EXECUTION_FAILED', message: failed.forLLM });
  });

  it('asks for secrets on every call (async allowed), so they can rotate', async () => {
    const log = new RunLog();
    const toolkit = freshToolkit();
    let current = 'password-one';
    toolkit.registerTool(loggedTool(log, 'echo', { respond: () => `db password is ${current}` }));
    toolkit.use(createRedactionHook({ secrets: () => Promise.resolve([current]) }));
    expect((await toolkit.callTool(toolCall('echo'))).forLLM).toBe('db password is [REDACTED]');
    current = 'password-two';
    expect((await toolkit.callTool(toolCall('echo'))).forLLM).toBe('db password is [REDACTED]');
  });

  it('can leave data alone', async () => {
    const log = new RunLog();
    const toolkit = freshToolkit();
    toolkit.registerTool(loggedTool(log, 'who', { respond: () => ({ email: 'ada@example.com' }) }));
    toolkit.use(createRedactionHook({ patterns: [SECRET_PATTERNS.email], data: false }));
    const result = await toolkit.callTool(toolCall('who'));
    expect(result.forLLM).toBe('{"email":"[REDACTED]"}');
    expect(result.data).toEqual({ email: 'ada@example.com' });
  });

  it('works beside preset redaction (preset values are already scrubbed by the executor)', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(
      {
        name: 'call_api',
        description: 'Call the API',
        parameters: { type: 'object', properties: { apiKey: { type: 'string' }, user: { type: 'string' } }, required: ['apiKey', 'user'] },
        execute: (args) => `used ${String(args.apiKey)} for ${String(args.user)}`,
      },
      { presets: { call_api: { apiKey: 'preset-key-123456' } } },
    );
    toolkit.use(createRedactionHook({ patterns: [SECRET_PATTERNS.email], replacement: '<hidden>' }));
    const result = await toolkit.callTool(toolCall('call_api', { user: 'ada@example.com' }));
    expect(result.forLLM).toBe('used [REDACTED] for <hidden>');
  });
});

describe('createRedactor and Error values', () => {
  it('scrubs the message of an Error inside data (JSON sees no fields on an Error)', () => {
    const redactor = createRedactor({ secrets: ['hunter2-secret'] });
    const error = new TypeError('login failed with hunter2-secret');
    const safe = redactor.value({ cause: error });
    expect(safe.cause).toBeInstanceOf(Error);
    expect(safe.cause.message).toBe('login failed with [REDACTED]');
    expect(safe.cause.name).toBe('TypeError');
    expect(String(safe.cause.stack)).not.toContain('hunter2-secret');
    const clean = { cause: new Error('nothing to hide') };
    expect(redactor.value(clean)).toBe(clean);
  });
});
