import { inject, injectable } from 'inversify';
import {
  AsyncCompletion,
  InjectContext,
  PromptArg,
  ToolEmitter,
  Prompt,
  Resource,
  ResourceParam,
  ToolExecutionContext,
  ToolParam,
  ToolService,
  Tool,
  ToolkitError,
  type ToolkitErrorCode,
} from '../../src';
import { freshToolkit } from '../support/toolkit';
import { rejection } from '../support/errors';
import { warningsDuring } from '../support/warnings';

class UserContext {
  constructor(readonly id: string) {}
}
const TENANT = Symbol('tenant');

@injectable()
class Store {
  readonly pages = new Map([
    ['intro', '# Intro'],
    ['setup', '# Setup'],
  ]);
}

@ToolService({ group: 'docs' })
class DocsService {
  constructor(@inject(Store) private readonly store: Store) {}

  @Resource({ uri: 'docs://readme', name: 'readme', title: 'README', description: 'The README', mimeType: 'text/markdown', size: 7 })
  readme(): string {
    return '# Hello';
  }

  @Resource({ uriTemplate: 'docs://pages/{slug}', name: 'page', mimeType: 'text/markdown', annotations: { audience: ['user'], priority: 0.5 } })
  page(@ResourceParam('slug') slug: string): string {
    const text = this.store.pages.get(slug);
    if (text === undefined) throw new Error(`no page ${slug}`);
    return text;
  }

  @Resource({ uriTemplate: 'orders://{id}{?full}', name: 'order' })
  order(@ResourceParam({ name: 'id', integer: true, schema: { minimum: 1 } }) id: number, @ResourceParam({ name: 'full', required: false, type: () => Boolean }) full: boolean | undefined, user: UserContext): object {
    return { id, full: full ?? false, user: user.id };
  }

  @Resource({ uriTemplate: 'files://{/path*}', name: 'file' })
  file(@ResourceParam({ name: 'path', type: () => [String] }) path: string[]): string {
    return path.join(' > ');
  }

  @Resource({ uri: 'docs://logo', name: 'logo', mimeType: 'image/png' })
  logo(): Uint8Array {
    return new Uint8Array([137, 80, 78, 71]);
  }

  @Resource({ uri: 'docs://both', name: 'both' })
  both(@InjectContext(TENANT) tenant: string) {
    return { contents: [{ text: `tenant ${tenant}` }, { uri: 'docs://both#raw', mimeType: 'application/octet-stream', blob: Buffer.from('hi') }] };
  }

  @Tool({ description: 'A tool beside the resources' })
  ping(): string {
    return 'pong';
  }
}

function toolkitWithDocs() {
  const toolkit = freshToolkit({ context: ToolExecutionContext.builder().register(new UserContext('u-1')).register(TENANT, 'acme').build() });
  toolkit.container.bind(Store).toSelf().inSingletonScope();
  toolkit.registerTool(DocsService);
  return toolkit;
}

describe('resources: registered with their service, read through a view', () => {
  test('registerTool registers the tools, resources and templates of a service together', () => {
    const toolkit = toolkitWithDocs();
    expect(toolkit.getAllTools().map((t) => t.name)).toEqual(['ping']);
    expect(toolkit.resources.list()).toEqual([
      { uri: 'docs://readme', name: 'readme', title: 'README', description: 'The README', mimeType: 'text/markdown', size: 7 },
      { uri: 'docs://logo', name: 'logo', mimeType: 'image/png' },
      { uri: 'docs://both', name: 'both' },
    ]);
    expect(toolkit.resources.templates()).toEqual([
      { uriTemplate: 'docs://pages/{slug}', name: 'page', mimeType: 'text/markdown', annotations: { audience: ['user'], priority: 0.5 } },
      { uriTemplate: 'orders://{id}{?full}', name: 'order' },
      { uriTemplate: 'files://{/path*}', name: 'file' },
    ]);
    expect(Object.isFrozen(toolkit.resources.list()[0])).toBe(true);
    expect(toolkit.getToolGroups().map((g) => g.name)).toEqual(['docs']);
  });

  test('a string is text, bytes a base64 blob, { contents } says everything, other values JSON text', async () => {
    const toolkit = toolkitWithDocs();
    expect(await toolkit.resources.read('docs://readme')).toEqual({ contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' }] });
    expect(await toolkit.resources.read('docs://logo')).toEqual({ contents: [{ uri: 'docs://logo', mimeType: 'image/png', blob: Buffer.from([137, 80, 78, 71]).toString('base64') }] });
    expect(await toolkit.resources.read('docs://both')).toEqual({
      contents: [
        { uri: 'docs://both', text: 'tenant acme' },
        { uri: 'docs://both#raw', mimeType: 'application/octet-stream', blob: Buffer.from('hi').toString('base64') },
      ],
    });
    expect(await toolkit.resources.read('orders://7')).toEqual({ contents: [{ uri: 'orders://7', mimeType: 'application/json', text: '{"id":7,"full":false,"user":"u-1"}' }] });
  });

  test('template variables become typed parameters: converted, validated, injected beside context objects', async () => {
    const toolkit = toolkitWithDocs();
    expect((await toolkit.resources.read('docs://pages/intro')).contents[0]).toMatchObject({ text: '# Intro' });
    const call = ToolExecutionContext.of(new UserContext('u-call'));
    expect((await toolkit.resources.read('orders://42?full=true', { context: call })).contents[0]).toMatchObject({ text: '{"id":42,"full":true,"user":"u-call"}' });
    expect((await toolkit.resources.read('files:///src/index.ts')).contents[0]).toMatchObject({ text: 'src > index.ts' });
    const invalid = await rejection(toolkit.resources.read('orders://0?full=maybe'), 'INVALID_ARGUMENTS');
    expect(invalid.message).toBe("Invalid arguments for resource 'order':\n- 'id': must be >= 1 (got 0)\n- 'full': must be boolean, got string");
    expect((await rejection(toolkit.resources.read('orders://abc'), 'INVALID_ARGUMENTS')).message).toContain("'id': must be integer, got string");
  });

  test('unknown URIs, failing methods and missing context objects reject with clear codes', async () => {
    const toolkit = toolkitWithDocs();
    expect((await rejection(toolkit.resources.read('docs://nothing'), 'UNKNOWN_RESOURCE')).message).toBe("Resource 'docs://nothing' not found.");
    expect((await rejection(toolkit.resources.read('x'.repeat(20_000)), 'INVALID_ARGUMENTS')).message).toContain('at most 16384 characters');
    expect((await rejection(toolkit.resources.read('docs://pages/missing'), 'EXECUTION_FAILED')).message).toBe("Reading resource 'page' failed: no page missing");
    const bare = freshToolkit();
    bare.container.bind(Store).toSelf();
    bare.registerTool(DocsService);
    expect((await rejection(bare.resources.read('orders://1'), 'CONTEXT_MISSING')).message).toContain('UserContext');
  });

  test('timeouts and the caller\'s abort reach the method\'s AbortSignal', async () => {
    let seen: AbortSignal | undefined;
    @ToolService()
    class Slow {
      @Resource({ uri: 'slow://one', name: 'slow', timeoutMs: 30 })
      wait(signal: AbortSignal): Promise<string> {
        seen = signal;
        return new Promise(() => undefined);
      }

      @Resource({ uri: 'slow://forever', name: 'forever' })
      forever(): Promise<string> {
        return new Promise(() => undefined);
      }
    }
    const toolkit = freshToolkit();
    toolkit.registerTool(Slow);
    expect((await rejection(toolkit.resources.read('slow://one'), 'TIMEOUT')).message).toBe("Reading resource 'slow' timed out after 30 ms.");
    expect(seen?.aborted).toBe(true);
    const controller = new AbortController();
    const reading = toolkit.resources.read('slow://forever', { signal: controller.signal });
    controller.abort(new Error('user left'));
    expect((await rejection(reading, 'ABORTED')).message).toContain('user left');
    await rejection(toolkit.resources.read('slow://forever', { signal: controller.signal }), 'ABORTED');
  });

  test('what a method returns that cannot be content is EXECUTION_FAILED, naming the resource', async () => {
    @ToolService()
    class Odd {
      @Resource({ uri: 'odd://undefined', name: 'nothing' })
      nothing(): undefined {
        return undefined;
      }

      @Resource({ uri: 'odd://contents', name: 'contents' })
      contents() {
        return { contents: [{ uri: 'odd://x' }] };
      }

      @Resource({ uri: 'odd://blob', name: 'blob' })
      blob() {
        return { contents: [{ blob: 42 }] };
      }
    }
    const toolkit = freshToolkit();
    toolkit.registerTool(Odd);
    expect((await rejection(toolkit.resources.read('odd://undefined'), 'EXECUTION_FAILED')).message).toContain("resource 'nothing' returned undefined");
    expect((await rejection(toolkit.resources.read('odd://contents'), 'EXECUTION_FAILED')).message).toContain('contents[0] without text or blob');
    expect((await rejection(toolkit.resources.read('odd://blob'), 'EXECUTION_FAILED')).message).toContain('contents[0].blob that is neither a Uint8Array nor base64 text');
  });
});

describe('resources and prompts: definition errors name Class.method and the fix', () => {
  const definitionError = (target: new (...args: never[]) => unknown, code: ToolkitErrorCode = 'INVALID_DEFINITION'): string => {
    try {
      freshToolkit().registerTool(target);
    } catch (error) {
      expect(ToolkitError.is(error, code)).toBe(true);
      return (error as Error).message;
    }
    throw new Error('registered');
  };

  test('a resource needs exactly one of uri and uriTemplate, and a URI with a scheme', () => {
    class Both {
      @Resource({ uri: 'a://b', uriTemplate: 'a://{b}' } as never)
      both() {
        return '';
      }
    }
    expect(definitionError(Both)).toBe('Both.both: @Resource needs exactly one of uri (a fixed resource) and uriTemplate (an RFC 6570 template).');
    class NoScheme {
      @Resource({ uri: 'readme.md', name: 'readme' })
      readme() {
        return '';
      }
    }
    expect(definitionError(NoScheme)).toContain("NoScheme.readme: 'readme.md' is not a URI: it needs a scheme");
    class Braces {
      @Resource({ uri: 'docs://{id}', name: 'page' })
      page() {
        return '';
      }
    }
    expect(definitionError(Braces)).toContain('declare a template with uriTemplate instead');
  });

  test('template variables and parameters must agree', () => {
    class NotAVariable {
      @Resource({ uriTemplate: 'docs://pages/{slug}', name: 'page' })
      page(@ResourceParam('id') id: string) {
        return id;
      }
    }
    expect(definitionError(NotAVariable)).toBe(
      "NotAVariable.page: parameter 'id' is not a variable of 'docs://pages/{slug}' (its variables: slug): rename it, or bind a preset.",
    );
    class FixedWithParam {
      @Resource({ uri: 'docs://readme', name: 'readme' })
      readme(@ResourceParam('lang') lang: string) {
        return lang;
      }
    }
    expect(definitionError(FixedWithParam)).toContain("has a fixed uri, so nothing fills parameter 'lang'");
    class Exploded {
      @Resource({ uriTemplate: 'files://{/path*}', name: 'file' })
      file(@ResourceParam('path') path: string) {
        return path;
      }
    }
    expect(definitionError(Exploded)).toContain('takes the exploded variable {/path*}: declare it string[]');
    class Dto {
      @Resource({ uriTemplate: 'x://{a}', name: 'x' })
      x(@ResourceParam({ name: 'a', schema: { type: 'object' } }) a: object) {
        return a;
      }
    }
    expect(definitionError(Dto)).toContain("parameter 'a' has type \"object\", but its value arrives as text");
  });

  test('tool-only injections and completions of presets are refused', () => {
    class Progress {
      @Resource({ uri: 'a://p', name: 'p' })
      p(emitter: ToolEmitter) {
        return String(emitter);
      }
    }
    expect(definitionError(Progress)).toBe(
      'Progress.p: parameter #0 is injected into tools only (a ToolEmitter); resources and prompts take their arguments, context objects, an AbortSignal and ClientRequests. Remove it.',
    );
    class Later {
      @Prompt({ description: 'later' })
      later(done: AsyncCompletion) {
        return String(done);
      }
    }
    expect(definitionError(Later)).toContain('Later.later: AsyncCompletion is for tools');
    @ToolService()
    class Hidden {
      @Prompt({ description: 'hidden' })
      hidden(@PromptArg({ name: 'key', complete: () => ['x'] }) key: string) {
        return key;
      }
    }
    expect(() => freshToolkit().registration().tool(Hidden).presetParameters({ 'prompt:hidden': { key: 'k' } }).apply()).toThrow(
      "Hidden.hidden: parameter 'key' has a preset, so nobody types it: remove its complete callback.",
    );
  });

  test('a prompt needs a description; names are unique per kind; a static method is refused', () => {
    class NoDescription {
      @Prompt()
      review() {
        return '';
      }
    }
    expect(definitionError(NoDescription, 'MISSING_DESCRIPTION')).toContain("NoDescription.review: prompt 'review' has no description");
    class Twice {
      @Resource({ uri: 'a://one', name: 'same' })
      one() {
        return '';
      }

      @Resource({ uri: 'a://two', name: 'same' })
      two() {
        return '';
      }
    }
    expect(definitionError(Twice, 'DUPLICATE_RESOURCE')).toBe(
      "Resource name 'same' is taken: Twice.one already registered it, and Twice.two registers it again. Rename one (the decorator's name, uri or uriTemplate).",
    );
    @ToolService()
    class First {
      @Prompt({ description: 'x' })
      review() {
        return '';
      }
    }
    @ToolService()
    class Second {
      @Prompt({ name: 'review', description: 'y' })
      other() {
        return '';
      }
    }
    const toolkit = freshToolkit();
    toolkit.registerTool(First);
    expect(() => toolkit.registerTool(Second)).toThrow(/Prompt name 'review' is taken: First.review already registered it, and Second.other/);
    expect(toolkit.prompts.list().map((p) => p.name)).toEqual(['review']);
    class Static {
      @Resource({ uri: 'a://b', name: 'b' })
      static b() {
        return '';
      }
    }
    expect(definitionError(Static)).toContain('Static.b: @Tool is on a static method (or @Resource, @Prompt)');
  });

  test('presets go under resource:<name> / prompt:<name>; a preset naming nothing is refused; one left unbound is refused at registration', async () => {
    @ToolService()
    class Keyed {
      @Resource({ uri: 'k://data', name: 'data' })
      data(@ResourceParam({ name: 'apiKey', preset: true }) apiKey: string) {
        return apiKey.length;
      }
    }
    expect(() => freshToolkit().registerTool(Keyed)).toThrow(
      "Keyed.data: resource 'data' hides the preset parameter(s) 'apiKey' (preset: true), and nothing binds them, so every read would fail. " +
        "Bind them: toolkit.registration().tool(Keyed).presetParameters({ 'resource:data': { apiKey: … } }).apply() (a resource runs where it is registered).",
    );
    const bound = freshToolkit();
    bound.registration().tool(Keyed).presetParameters({ 'resource:data': { apiKey: () => 'k3y' } }).apply();
    expect(await bound.resources.read('k://data')).toMatchObject({ contents: [{ text: '3' }] });
    expect(() => freshToolkit().registration().tool(Keyed).presetParameters({ 'resource:data': { apiKey: 'k', other: 1 } }).apply()).toThrow(
      "Keyed.data: preset(s) 'other' match no parameter of resource 'data'. Its parameters: apiKey.",
    );
    expect(() => freshToolkit().registration().tool(Keyed).presetParameters({ 'resource:data': { apiKey: 'k' }, 'prompt:data': { apiKey: 'k' } }).apply()).toThrow(
      "Presets name tool(s) 'prompt:data' that this registration does not register. It registers: resource:data.",
    );
  });

  test('a prompt preset left unbound is refused at registration with the whole service (its tools too), and nothing is warned about', async () => {
    @ToolService()
    class Reviews {
      @Tool({ name: 'post_review', description: 'Posts a review with a hidden key' })
      post(@ToolParam({ name: 'text' }) text: string, @ToolParam({ name: 'apiKey', preset: true }) apiKey: string) {
        return `${text}:${apiKey.length}`;
      }

      @Prompt({ name: 'review', description: 'Review with a house style' })
      review(@PromptArg({ name: 'topic' }) topic: string, @PromptArg({ name: 'style-guide', preset: true }) guide: string) {
        return `${topic} in ${guide}`;
      }
    }
    const toolkit = freshToolkit();
    const warnings = await warningsDuring('TOOLWRIGHT_PRESET_UNBOUND', () => {
      expect(() => toolkit.registration().tool(Reviews).presetParameters({ 'prompt:review': {} }).apply()).toThrow(
        "Reviews.review: prompt 'review' hides the preset parameter(s) 'style-guide' (preset: true), and nothing binds them, so every read would fail. " +
          "Bind them: toolkit.registration().tool(Reviews).presetParameters({ 'prompt:review': { 'style-guide': … } }).apply() (a prompt runs where it is registered).",
      );
    });
    expect(warnings).toEqual([]);
    expect(toolkit.getAllTools()).toEqual([]);
    expect(toolkit.prompts.list()).toEqual([]);
  });

  test('registration is atomic: a duplicate resource registers none of the service\'s tools either', () => {
    @ToolService()
    class A {
      @Resource({ uri: 'a://x', name: 'x' })
      x() {
        return '';
      }
    }
    @ToolService()
    class B {
      @Tool({ description: 'b' })
      b() {
        return '';
      }

      @Resource({ uri: 'a://x', name: 'x2' })
      x() {
        return '';
      }
    }
    const toolkit = freshToolkit();
    toolkit.registerTool(A);
    expect(() => toolkit.registerTool(B)).toThrow(ToolkitError);
    expect(toolkit.getTool('b')).toBeUndefined();
    expect(toolkit.resources.list().map((r) => r.name)).toEqual(['x']);
  });

  test('@ToolParam works on resource methods too (as @ResourceParam without completion)', async () => {
    @ToolService()
    class Plain {
      @Resource({ uriTemplate: 'p://{n}', name: 'p' })
      p(@ToolParam({ name: 'n', integer: true }) n: number) {
        return String(n * 2);
      }
    }
    const toolkit = freshToolkit();
    toolkit.registerTool(Plain);
    expect((await toolkit.resources.read('p://21')).contents[0]).toMatchObject({ text: '42' });
  });
});
