import 'reflect-metadata';
import { Container } from 'inversify';
import { asyncResult, contentResult, textContent, Toolkit, type AgentTool, type AsyncCallback, type AsyncTool, type ToolBehaviour, type ToolResult } from '../../../src';
import { recordEvents } from '../../support/events';
import { findLeaks, leakForms } from '../../support/leaks';
import { Closer, connectInMemory } from '../../support/mcp';

/** Secrets a user really has, each leaking through a different URL API. */
const PASSPHRASE = 'correct horse battery staple'; // URLSearchParams: correct+horse+battery+staple
const PATHY = 'p4ss word/with slash'; // URL path: p4ss%20word/with%20slash
const BANG = "Hunter2!Secret~(x)'*"; // encodeURIComponent keeps !~()'*, URLSearchParams encodes them
const RESERVED = 'tök;en?a=b&c#d@e:f'; // encodeURI keeps ;?=&#@:, a URL splits it into query and fragment
const PASSWORD = 'p@ss:w/rd [x]|^`{}'; // a URL's user info encodes @ : / [ ] | ^ and more
const SECRETS = [PASSPHRASE, PATHY, BANG, RESERVED, PASSWORD];

/** Every way a tool leaks its key in a URL, by name. */
const WAYS: Readonly<Record<string, (key: string) => string>> = {
  searchParams: (key) => `GET https://api.example/v1?${new URLSearchParams({ key })} failed`,
  href: (key) => new URL(`https://api.example/v1/${key}?q=${key}#${key}`).href,
  search: (key) => new URL(`https://api.example/v1?key=${key}`).search,
  pathname: (key) => new URL(`https://api.example/${key}`).pathname,
  hash: (key) => new URL(`https://api.example/#${key}`).hash,
  password: (key) => {
    const url = new URL('postgres://svc@db.example/app');
    url.password = key;
    return url.href;
  },
  encodeURI: (key) => encodeURI(`https://api.example/${key}`),
  component: (key) => `https://api.example/?key=${encodeURIComponent(key)}`,
  lowerEscapes: (key) => encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
  mixedEscapes: (key) => encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (escape, at: number) => (at % 2 ? escape.toLowerCase() : escape)),
  urlInJson: (key) => JSON.stringify({ request: { url: new URL(`https://api.example/v1?key=${key}`).href, form: `${new URLSearchParams({ key })}` } }),
  jsonInUrl: (key) => `https://api.example/?filter=${encodeURIComponent(JSON.stringify({ key }))}&q=${new URLSearchParams({ q: JSON.stringify({ key }) })}`,
};

function leakyTool(): AgentTool {
  return {
    name: 'fetch_api',
    description: 'Fetches from the API with its key',
    parameters: { type: 'object', properties: { way: { type: 'string' }, exit: { type: 'string' }, key: { type: 'string' } }, required: ['way', 'exit'] },
    behaviour: { retry: { maxAttempts: 2, initialBackoffMs: 1 } },
    execute: (args, ctx) => {
      const text = WAYS[String(args.way)](String(args.key));
      switch (args.exit) {
        case 'text':
          return text;
        case 'throw':
          throw new Error(text, { cause: { url: text } });
        case 'result':
          return { forLLM: text, forUser: text, silent: false, isError: false, async: false, data: { url: text } } satisfies ToolResult;
        case 'data':
          return { url: text, nested: [{ url: text }] };
        case 'content':
          return contentResult([textContent(text), { type: 'resource_link', uri: `https://api.example/${encodeURIComponent(text)}`, name: text }]);
        case 'progress':
          ctx.emit({ progress: 1, total: 2, message: text });
          ctx.log?.('warning', { url: text });
          return 'ok';
        default:
          throw new Error(`no exit ${String(args.exit)}`);
      }
    },
  };
}

function toolkitWith(key: string): Toolkit {
  const toolkit = new Toolkit({ container: new Container() });
  toolkit.registerTool(leakyTool(), { presets: { fetch_api: { key } } });
  return toolkit;
}

const EXITS = ['text', 'throw', 'result', 'data', 'content', 'progress'];

/** A toolkit whose one tool `name` gets `pad` (a length) from the call and the preset `key`, and answers `execute(pad, key)`. */
function paddedToolkit(name: string, description: string, key: string, execute: (pad: number, key: string) => unknown, behaviour?: ToolBehaviour): Toolkit {
  const toolkit = new Toolkit({ container: new Container() });
  toolkit.registerTool(
    {
      name,
      description,
      parameters: { type: 'object', properties: { pad: { type: 'integer' }, key: { type: 'string' } }, required: ['pad'] },
      ...(behaviour ? { behaviour } : {}),
      execute: (args) => execute(Number(args.pad), String(args.key)),
    },
    { presets: { [name]: { key } } },
  );
  return toolkit;
}

describe('a preset never leaves in any URL form JavaScript produces', () => {
  it.each(SECRETS.map((secret) => [secret]))('%j: not in results (forLLM, forUser, data, error, content) nor any event', async (secret) => {
    const toolkit = toolkitWith(secret);
    const recorder = recordEvents(toolkit);
    const results: ToolResult[] = [];
    const seen: unknown[] = [];
    for (const way of Object.keys(WAYS)) {
      for (const exit of EXITS) {
        results.push(await toolkit.callTool({ id: `${way}-${exit}`, name: 'fetch_api', arguments: { way, exit } }, { onProgress: (p) => seen.push(p), onLog: (l) => seen.push(l) }));
      }
    }
    recorder.stop();
    expect(results.filter((r) => r.isError).map((r) => r.toolCallId)).toEqual(Object.keys(WAYS).map((way) => `${way}-throw`));
    expect(results.find((r) => r.toolCallId === 'searchParams-throw')?.forLLM).toBe("Tool 'fetch_api' failed: GET https://api.example/v1?key=[REDACTED] failed (after 2 attempts)");
    expect(new Set(recorder.events.map((e) => e.type))).toEqual(new Set(['call_started', 'call_succeeded', 'call_failed', 'attempt_failed', 'retry_scheduled', 'call_progress', 'call_log']));
    expect(seen.length).toBe(2 * Object.keys(WAYS).length);
    expect(findLeaks(results, [secret])).toEqual([]);
    expect(findLeaks(recorder.events, [secret])).toEqual([]);
    expect(findLeaks(seen, [secret])).toEqual([]);
  });

  it('the attacker’s probes read [REDACTED] where the key was, the rest of the URL intact', async () => {
    const answer = async (key: string, way: string): Promise<string> => (await toolkitWith(key).callTool({ id: 'p', name: 'fetch_api', arguments: { way, exit: 'text' } })).forLLM;
    expect(await answer(PASSPHRASE, 'searchParams')).toBe('GET https://api.example/v1?key=[REDACTED] failed');
    expect(await answer(PATHY, 'pathname')).toBe('/[REDACTED]');
    expect(await answer(BANG, 'search')).toBe('?key=[REDACTED]');
    expect(await answer(PASSWORD, 'password')).toBe('postgres://svc:[REDACTED]@db.example/app');
    expect(await answer(PATHY, 'mixedEscapes')).toBe('[REDACTED]');
  });

  it('an object preset’s leaves and a call-time preset are found in URL forms too', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(leakyTool(), { presets: { fetch_api: { key: () => Promise.resolve(BANG) } } });
    const creds = { user: 'svc-reports', password: PASSWORD };
    toolkit.registerTool(
      { name: 'connect', description: 'Connects', parameters: { type: 'object', properties: { creds: { type: 'object' } } }, execute: (args) => `redis://${new URLSearchParams(args.creds as Record<string, string>)}@cache` },
      { presets: { connect: { creds } } },
    );
    const results = [
      await toolkit.callTool({ id: 'a', name: 'fetch_api', arguments: { way: 'searchParams', exit: 'text' } }),
      await toolkit.callTool({ id: 'b', name: 'connect', arguments: {} }),
    ];
    expect(results[1].forLLM).toBe('redis://user=[REDACTED]&password=[REDACTED]@cache');
    expect(findLeaks(results, [BANG, PASSWORD, creds.user])).toEqual([]);
  });

  it('no cut leaves 8+ characters of any URL form: maxResultChars comes after redaction, at every position', async () => {
    for (const secret of [PASSPHRASE, PASSWORD]) {
      const toolkit = paddedToolkit('padded', 'A URL between padding', secret, (pad, key) => `${'h'.repeat(pad)} ${WAYS.searchParams(key)} ${WAYS.password(key)} ${'t'.repeat(400)}`, { maxResultChars: 300 });
      for (let pad = 120; pad <= 200; pad += 4) {
        const result = await toolkit.callTool({ id: `c${pad}`, name: 'padded', arguments: { pad } });
        expect(result.forLLM.length).toBeLessThanOrEqual(300);
        expect(findLeaks(result.forLLM, [secret])).toEqual([]);
      }
    }
  });

  it('no cut leaves 8+ characters of any URL form: the 500-character description of a thrown object is cut after redaction', async () => {
    const toolkit = paddedToolkit('throws', 'Throws a plain object quoting its request URL', PASSWORD, (pad, key) => {
      throw { pad: 'x'.repeat(pad), url: WAYS.searchParams(key), lower: WAYS.lowerEscapes(key) };
    });
    // `{"pad":"xx…x","url":"GET https://api.example/v1?key=` puts the encoded key across the 500th character
    for (let pad = 400; pad <= 470; pad += 5) {
      const result = await toolkit.callTool({ id: `t${pad}`, name: 'throws', arguments: { pad } });
      expect(result.error?.code).toBe('EXECUTION_FAILED');
      expect(findLeaks(result, [PASSWORD])).toEqual([]);
    }
  });

  it('no cut leaves 8+ characters of any URL form: a resource link URI quoted (cut at 200) in the texts of content parts', async () => {
    const toolkit = paddedToolkit('link', 'Links its request URL', PASSPHRASE, (pad, key) => {
      const uri = `https://api.example/${'p'.repeat(pad)}?${new URLSearchParams({ key })}`;
      return contentResult([{ type: 'resource_link', uri, name: 'report' }]);
    });
    // the view quotes 199 characters of the URI: these pads put the key's form across that cut
    for (let pad = 148; pad <= 164; pad += 2) {
      const result = await toolkit.callTool({ id: `l${pad}`, name: 'link', arguments: { pad } });
      expect(result.forLLM).toMatch(/^\[resource link: report <https:\/\/api\.example\/p+\?key=\[REDACTED\]>\]$/);
      expect(findLeaks(result, [PASSPHRASE])).toEqual([]);
    }
  });

  it('an AsyncTool completion holding the key in URL forms is redacted, awaited or stray', async () => {
    let callback: AsyncCallback | undefined;
    const tool: AsyncTool = {
      name: 'render',
      description: 'Renders later',
      parameters: { type: 'object', properties: { key: { type: 'string' } } },
      setCallback: (cb) => (callback = cb),
      execute: () => asyncResult('rendering'),
    };
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(tool, { presets: { render: { key: PATHY } } });
    const recorder = recordEvents(toolkit);
    const completed: ToolResult[] = [];
    await toolkit.callTool({ id: 'job-1', name: 'render', arguments: {} }, { onAsyncComplete: (r) => completed.push(r) });
    const done = (id: string): ToolResult => ({ forLLM: WAYS.href(PATHY), forUser: WAYS.encodeURI(PATHY), silent: false, isError: false, async: false, data: { url: WAYS.pathname(PATHY) }, toolCallId: id });
    callback!(done('job-1'));
    callback!(done('nobody-waits'));
    recorder.stop();
    expect(completed).toHaveLength(1);
    expect(completed[0].forLLM).toBe('https://api.example/v1/[REDACTED]?q=[REDACTED]#[REDACTED]');
    expect(recorder.of('async_completed')).toHaveLength(2);
    expect(findLeaks({ completed, events: recorder.events }, [PATHY])).toEqual([]);
  });

  it('over MCP (in-memory client): tools/call results and errors hold no URL form', async () => {
    const closer = new Closer();
    try {
      const { client } = await connectInMemory(toolkitWith(PASSPHRASE), closer);
      const responses = [];
      for (const way of Object.keys(WAYS)) for (const exit of ['text', 'throw', 'content']) responses.push(await client.call('fetch_api', { way, exit }));
      expect(responses.filter((r) => r.isError === true)).toHaveLength(Object.keys(WAYS).length);
      expect(responses[0].content[0]).toEqual({ type: 'text', text: 'GET https://api.example/v1?key=[REDACTED] failed' });
      expect(findLeaks(responses, [PASSPHRASE])).toEqual([]);
    } finally {
      await closer.closeAll();
    }
  });

  it('the oracle itself sees each probe leak without redaction (a control)', () => {
    for (const secret of SECRETS) {
      const forms = leakForms(secret);
      for (const [way, leak] of Object.entries(WAYS)) expect({ way, secret, found: forms.some((form) => leak(secret).includes(form)) }).toEqual({ way, secret, found: true });
    }
  });
});
