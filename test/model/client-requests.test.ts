import 'reflect-metadata';
import { getEventListeners } from 'node:events';
import {
  ClientRequests,
  Tool,
  ToolParam,
  ToolService,
  Toolkit,
  ToolkitError,
  type ClientRequestHandler,
  type ClientRequestOptions,
  type ElicitationRequest,
  type ToolManifest,
} from '../../src';

const FORM: ElicitationRequest = { message: 'ok?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } };

/** A handler that records what it got and answers after `settle()` (or when its signal fires). */
function recordingHandler(capabilities: readonly string[] = ['sampling', 'elicitation']) {
  const seen: { request: unknown; options: ClientRequestOptions }[] = [];
  let settle: (() => void) | undefined;
  const handler: ClientRequestHandler = {
    supports: (capability) => capabilities.includes(capability),
    createMessage: (request, options) => {
      seen.push({ request, options });
      return Promise.resolve({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' });
    },
    elicit: (request, options) => {
      seen.push({ request, options });
      return new Promise((resolve, reject) => {
        settle = () => resolve({ action: 'accept', content: { ok: true } });
        options.signal.addEventListener('abort', () => reject(new Error('cancelled by the signal')), { once: true });
      });
    },
  };
  return { handler, seen, settle: () => settle?.() };
}

describe('ClientRequests', () => {
  test('without a handler: not available, supports nothing, every request is CLIENT_UNAVAILABLE', async () => {
    const client = new ClientRequests();
    expect(client.available).toBe(false);
    expect(client.supports('sampling')).toBe(false);
    const error = await client.elicit(FORM).catch((e: unknown) => e);
    expect(ToolkitError.is(error, 'CLIENT_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toMatch(/^A tool asked the client for elicitation \(elicitation\/create\), but this call has no client to ask/);
  });

  test('roots: CLIENT_UNAVAILABLE without a handler; a handler without listRoots supports no roots (whatever it says), asking is CLIENT_CAPABILITY_MISSING; a throwing listRoots is CLIENT_REQUEST_FAILED', async () => {
    const none = await new ClientRequests(undefined, { toolName: 'ws' }).listRoots().catch((e: unknown) => e);
    expect(ToolkitError.is(none, 'CLIENT_UNAVAILABLE')).toBe(true);
    expect((none as Error).message).toMatch(/^Tool 'ws' asked the client for roots \(roots\/list\)/);
    const boasting: ClientRequestHandler = { ...recordingHandler(['roots']).handler, supports: () => true };
    const client = new ClientRequests(boasting, { asker: "Prompt 'brief'" });
    expect(client.supports('roots')).toBe(false);
    const missing = await client.listRoots().catch((e: unknown) => e);
    expect(ToolkitError.is(missing, 'CLIENT_CAPABILITY_MISSING')).toBe(true);
    expect((missing as Error).message).toMatch(/^Prompt 'brief' asked the client for roots \(roots\/list\), but it did not declare the 'roots' capability/);
    const failing = new ClientRequests({ ...boasting, listRoots: () => Promise.reject(new Error('x'.repeat(10_000))) });
    expect(failing.supports('roots')).toBe(true);
    const failed = await failing.listRoots().catch((e: unknown) => e);
    expect(ToolkitError.is(failed, 'CLIENT_REQUEST_FAILED')).toBe(true);
    expect((failed as Error).message.length).toBeLessThan(2_500);
    const answering = new ClientRequests({ ...boasting, listRoots: (options) => Promise.resolve({ roots: [{ uri: `file:///${options.key ?? 'none'}` }] }) });
    expect(await answering.listRoots({ key: 'client_roots' })).toEqual({ roots: [{ uri: 'file:///client_roots' }] });
    await expect(answering.listRoots({ key: 'bad key!' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  test('the call’s signal and the request’s own are linked for the handler, and unlinked once the request settled', async () => {
    const call = new AbortController();
    const { handler, seen, settle } = recordingHandler();
    const client = new ClientRequests(handler, { toolName: 'ask', signal: call.signal });
    const own = new AbortController();
    const pending = client.elicit(FORM, { signal: own.signal, timeoutMs: 1_234 });
    expect(seen[0].options.timeoutMs).toBe(1_234);
    expect(getEventListeners(call.signal, 'abort')).toHaveLength(1);
    settle();
    expect(await pending).toEqual({ action: 'accept', content: { ok: true } });
    expect(getEventListeners(call.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(own.signal, 'abort')).toHaveLength(0);

    // the tool's own signal cancels one request; the call's reason wins over the handler's error
    const second = client.elicit(FORM, { signal: own.signal });
    own.abort(new Error('tool gave up'));
    await expect(second).rejects.toThrow('tool gave up');
    const third = client.elicit(FORM);
    call.abort(new Error('call timed out'));
    await expect(third).rejects.toThrow('call timed out');
    // already aborted: the handler is not asked
    const before = seen.length;
    await expect(client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 1 })).rejects.toThrow('call timed out');
    expect(seen).toHaveLength(before);
  });

  test('a failing handler is CLIENT_REQUEST_FAILED with its message, bounded; its own client errors pass through', async () => {
    const huge = 'E'.repeat(100_000);
    const failing: ClientRequestHandler = {
      description: 'the test handler',
      supports: () => true,
      createMessage: () => Promise.reject(new Error(huge)),
      elicit: () => Promise.reject(new ToolkitError('CLIENT_CAPABILITY_MISSING', 'no forms here')),
    };
    const client = new ClientRequests(failing, { toolName: 't' });
    const error = (await client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 1 }).catch((e: unknown) => e)) as ToolkitError;
    expect(error.code).toBe('CLIENT_REQUEST_FAILED');
    expect(error.message).toMatch(/^Tool 't' asked the test handler for sampling \(sampling\/createMessage\) and got no usable answer: E+…$/);
    expect(error.message.length).toBeLessThan(2_200);
    await expect(client.elicit(FORM)).rejects.toMatchObject({ code: 'CLIENT_CAPABILITY_MISSING', message: 'no forms here' });
  });

  test('requests MCP cannot carry are INVALID_OPTIONS before anything is sent; what is sent goes through the redaction', async () => {
    const { handler, seen } = recordingHandler();
    const client = new ClientRequests(handler, { redact: (request) => JSON.parse(JSON.stringify(request).replace(/secret/g, '[REDACTED]')) as unknown });
    const invalid: unknown[] = [
      { message: 'x', requestedSchema: { type: 'array' } },
      { message: 'x', requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } },
      { message: 'x', requestedSchema: { type: 'object', properties: { a: null } } },
      { requestedSchema: { type: 'object', properties: {} } },
    ];
    for (const request of invalid) await expect(client.elicit(request as ElicitationRequest)).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(client.createMessage({ messages: [], maxTokens: 10 })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 1.5 })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(seen).toHaveLength(0);
    await client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'my secret' } }], maxTokens: 3 });
    expect(seen[0].request).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'my [REDACTED]' } }], maxTokens: 3 });
  });
});

interface ClientLike {
  supports(capability: 'sampling' | 'elicitation'): boolean;
}

@ToolService()
class Asker {
  @Tool({ description: 'Asks the user' })
  async ask(@ToolParam({ name: 'question' }) question: string, client: ClientRequests): Promise<string> {
    if (!client.supports('elicitation')) return 'nobody to ask';
    return (await client.elicit({ message: question, requestedSchema: { type: 'object', properties: {} } })).action;
  }
}

@ToolService()
class ManifestAsker {
  @Tool({ description: 'Injected by the manifest' })
  probe(client: ClientLike): string {
    return client.supports('sampling') ? 'can sample' : 'cannot sample';
  }
}

describe('injection of ClientRequests', () => {
  test('a parameter of that type is injected (no @ToolParam, no schema); a unit test passes its own', async () => {
    const toolkit = new Toolkit({ clientRequests: { supports: () => true, createMessage: () => Promise.reject(new Error('no')), elicit: async () => ({ action: 'decline' }) } });
    toolkit.registerTool(Asker);
    expect(toolkit.getTool('ask')?.parameters).toEqual({ type: 'object', properties: { question: { type: 'string' } }, required: ['question'], additionalProperties: false });
    expect((await toolkit.callTool({ id: 'a', name: 'ask', arguments: { question: 'go?' } })).forLLM).toBe('decline');
    expect(await new Asker().ask('go?', new ClientRequests())).toBe('nobody to ask');
  });

  test('the manifest’s injected kind `client` injects it where reflection sees only an interface', async () => {
    const manifest: ToolManifest = {
      version: 1,
      generator: 'toolwright-schema',
      classes: { ManifestAsker: { file: 'x.ts', methods: { probe: { params: [{ name: 'client', index: 0, optional: false, kind: 'injected', injected: 'client' }] } } } },
    };
    const toolkit = new Toolkit({ manifest, clientRequests: { supports: (c) => c === 'sampling', createMessage: () => Promise.reject(new Error('no')), elicit: () => Promise.reject(new Error('no')) } });
    toolkit.registerTool(ManifestAsker);
    expect((await toolkit.callTool({ id: 'p', name: 'probe', arguments: {} })).forLLM).toBe('can sample');
  });
});

describe('ClientRequestOptions.phase and key: what a handler learns of a question', () => {
  test('before-hooks ask "before", the body "tool", after-hooks "after"; a key given by the tool reaches the handler', async () => {
    const seen: [string | undefined, string | undefined, string][] = [];
    const handler: ClientRequestHandler = {
      supports: () => true,
      createMessage: () => Promise.reject(new Error('no')),
      elicit: async (request, options) => {
        seen.push([options.phase, options.key, request.message]);
        return { action: 'accept', content: {} };
      },
    };
    const toolkit = new Toolkit({ clientRequests: handler });
    const form = { type: 'object', properties: {} } as const;
    toolkit.registerTool({
      name: 'asker',
      description: 'asks',
      parameters: { type: 'object', properties: {} },
      execute: async (_args, ctx) => (await ctx.client!.elicit({ message: 'body', requestedSchema: form }, { key: 'q.1' })).action,
    });
    toolkit.use({
      name: 'asking-hooks',
      before: async (ctx) => void (await ctx.client!.elicit({ message: 'before', requestedSchema: form })),
      after: async (ctx) => void (await ctx.client!.elicit({ message: 'after', requestedSchema: form })),
    });
    expect((await toolkit.callTool({ id: 'ph', name: 'asker', arguments: {} })).forLLM).toBe('accept');
    expect(seen).toEqual([
      ['before', undefined, 'before'],
      ['tool', 'q.1', 'body'],
      ['after', undefined, 'after'],
    ]);
  });
});
