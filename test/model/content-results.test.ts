import 'reflect-metadata';
import {
  audioContent,
  contentResult,
  embeddedResource,
  imageContent,
  resourceLink,
  textContent,
  Tool,
  ToolkitError,
  ToolParam,
  type AgentTool,
  type ToolContent,
  type ToolResult,
} from '../../src';
import { RED_PIXEL_PNG, silentWav } from '../support/content';
import { call, expectToolResult, newToolkit, expectAllSchemasMetaValid, agentTool } from '../support/toolkit';

afterAll(() => expectAllSchemasMetaValid());

function thrown(fn: () => unknown): ToolkitError {
  try {
    fn();
  } catch (e) {
    expect(ToolkitError.is(e, 'INVALID_CONTENT')).toBe(true);
    return e as ToolkitError;
  }
  throw new Error('expected a throw');
}

describe('content helpers', () => {
  it('build MCP-shaped, frozen parts', () => {
    const image = imageContent(RED_PIXEL_PNG, 'image/png', { audience: ['user'], priority: 0.5, lastModified: '2026-01-05T10:00:00Z' });
    expect(image).toEqual({ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png', annotations: { audience: ['user'], priority: 0.5, lastModified: '2026-01-05T10:00:00Z' } });
    expect(Object.isFrozen(image)).toBe(true);
    expect(Object.isFrozen(image.annotations)).toBe(true);
    expect(JSON.parse(JSON.stringify(image))).toEqual(image); // no hidden marks in the JSON

    const wav = silentWav();
    expect(audioContent(wav, 'audio/wav')).toEqual({ type: 'audio', data: wav.toString('base64'), mimeType: 'audio/wav' });
    expect(textContent('hi')).toEqual({ type: 'text', text: 'hi' });
    expect(embeddedResource({ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' })).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' },
    });
    expect(embeddedResource({ uri: 'file:///a.bin', blob: new Uint8Array([1, 2, 3]) })).toEqual({ type: 'resource', resource: { uri: 'file:///a.bin', blob: 'AQID' } });
    expect(resourceLink({ uri: 'file:///q3.pdf', name: 'q3.pdf', mimeType: 'application/pdf', size: 12 })).toEqual({
      type: 'resource_link',
      uri: 'file:///q3.pdf',
      name: 'q3.pdf',
      mimeType: 'application/pdf',
      size: 12,
    });
  });

  it('copy the annotations they are given (a later change does not reach the part)', () => {
    const audience: ('user' | 'assistant')[] = ['user'];
    const part = textContent('x', { audience });
    audience.push('assistant');
    expect(part.annotations?.audience).toEqual(['user']);
  });

  it('refuse malformed input with INVALID_CONTENT naming the fault and the fix', () => {
    expect(thrown(() => imageContent('a-b_', 'image/png')).message).toMatch(/imageContent: data is not base64: character "-" at index 1 \(base64url\? use the standard alphabet/);
    expect(thrown(() => imageContent(`data:image/png;base64,${RED_PIXEL_PNG}`, 'image/png')).message).toMatch(/data: URL.*after the comma/);
    expect(thrown(() => imageContent('aGk', 'image/png')).message).toMatch(/length 3 is not a multiple of 4/);
    expect(thrown(() => imageContent('aG=k', 'image/png')).message).toMatch(/'=' at index 2 is not trailing padding/);
    expect(thrown(() => imageContent('aGVs\nbG8=', 'image/png')).message).toMatch(/remove whitespace/);
    expect(thrown(() => imageContent('', 'image/png')).message).toMatch(/data is empty/);
    expect(thrown(() => imageContent(RED_PIXEL_PNG, 'text/plain')).message).toMatch(/mimeType 'text\/plain' is not a image type/);
    expect(thrown(() => audioContent(RED_PIXEL_PNG, 'png')).message).toMatch(/mimeType 'png' is not a media type/);
    expect(thrown(() => textContent('x', { audience: ['model' as 'user'] })).message).toMatch(/audience may hold only 'user' and 'assistant', got 'model'/);
    expect(thrown(() => textContent('x', { priority: 2 })).message).toMatch(/priority must be a number from 0 to 1, got 2/);
    expect(thrown(() => textContent('x', { lastModified: 'yesterday' })).message).toMatch(/lastModified must be an ISO 8601 date-time/);
    expect(thrown(() => resourceLink({ uri: '', name: 'x' })).message).toMatch(/uri is empty/);
    expect(thrown(() => resourceLink({ uri: 'a:b', name: 'x', size: -1 })).message).toMatch(/size must be a whole number/);
    expect(thrown(() => embeddedResource({ uri: 'a:b', text: 'x', blob: 'AQID' } as never)).message).toMatch(/either text or blob/);
    expect(thrown(() => contentResult([{ type: 'video', data: 'x' } as unknown as ToolContent])).message).toMatch(
      /contentResult: part 1 \(video\): has type 'video'; expected one of 'text', 'image', 'audio', 'resource', 'resource_link'/,
    );
  });

  it('bound what a message quotes of a hostile value', () => {
    const message = thrown(() => imageContent(RED_PIXEL_PNG, 'x'.repeat(100_000))).message;
    expect(message.length).toBeLessThan(200);
    expect(message).toMatch(/100000 characters long \(at most 255\)/);
  });
});

describe('contentResult: the texts', () => {
  it('forLLM holds the parts meant for the model, forUser those meant for the user, binary parts as placeholders', () => {
    const result = contentResult([
      'Revenue by quarter:',
      imageContent(RED_PIXEL_PNG, 'image/png'),
      textContent('Open the dashboard for details.', { audience: ['user'] }),
      textContent('Internal note: numbers are preliminary.', { audience: ['assistant'] }),
      embeddedResource({ uri: 'file:///q3.csv', mimeType: 'text/csv', text: 'q,rev\n3,10' }),
      resourceLink({ uri: 'file:///q3.pdf', name: 'q3.pdf', mimeType: 'application/pdf', description: 'Q3 report' }),
    ]);
    expect(result.forLLM).toBe(
      [
        'Revenue by quarter:',
        '[image: image/png, 70 bytes]',
        'Internal note: numbers are preliminary.',
        '[resource file:///q3.csv (text/csv)]\nq,rev\n3,10',
        '[resource link: q3.pdf <file:///q3.pdf> (application/pdf) - Q3 report]',
      ].join('\n'),
    );
    expect(result.forUser).toBe(
      [
        'Revenue by quarter:',
        '[image: image/png, 70 bytes]',
        'Open the dashboard for details.',
        '[resource file:///q3.csv (text/csv)]\nq,rev\n3,10',
        '[resource link: q3.pdf <file:///q3.pdf> (application/pdf) - Q3 report]',
      ].join('\n'),
    );
    expect(result).toMatchObject({ silent: false, isError: false, async: false });
    expect(result.content).toHaveLength(6);
    expect(Object.isFrozen(result.content)).toBe(true);
  });

  it('leaves forUser unset when both views agree, and is silent when no part is for the user', () => {
    const same = contentResult([textContent('a'), imageContent(RED_PIXEL_PNG, 'image/png')], { n: 1 });
    expect(same.forUser).toBeUndefined();
    expect(same.data).toEqual({ n: 1 });
    const modelOnly = contentResult(textContent('for the model', { audience: ['assistant'] }));
    expect(modelOnly).toMatchObject({ forLLM: 'for the model', silent: true });
    const userOnly = contentResult(imageContent(RED_PIXEL_PNG, 'image/png', { audience: ['user'] }));
    expect(userOnly.forLLM).toBe('[1 content part shown to the user only]');
    expect(userOnly.forUser).toBe('[image: image/png, 70 bytes]');
  });

  it('bounds a placeholder whatever the length of the URI or name', () => {
    const result = contentResult(resourceLink({ uri: `https://x/${'a'.repeat(8000)}`, name: 'n'.repeat(1000), description: 'd'.repeat(8000) }));
    expect(result.forLLM.length).toBeLessThan(700);
  });
});

class Charts {
  @Tool({ name: 'chart', description: 'Draw a chart' })
  chart(@ToolParam({ name: 'title' }) title: string): ToolResult {
    return contentResult([`Chart: ${title}`, imageContent(Buffer.from(RED_PIXEL_PNG, 'base64'), 'image/png')]);
  }

  @Tool({ name: 'parts', description: 'Return parts directly' })
  parts(): ToolContent[] {
    return [textContent('two parts'), audioContent(silentWav(), 'audio/wav')];
  }

  @Tool({ name: 'one_part', description: 'Return one part' })
  async onePart(): Promise<ToolContent> {
    return imageContent(RED_PIXEL_PNG, 'image/png');
  }

  @Tool({ name: 'look_alike', description: 'Return a plain object shaped like a part' })
  lookAlike(): unknown {
    return [{ type: 'text', text: 'just data' }];
  }

  @Tool({ name: 'bad_helper', description: 'A helper given bad data' })
  badHelper(): ToolContent {
    return imageContent('not base64!', 'image/png');
  }
}

describe('tools that return content', () => {
  it('a decorated method returns contentResult, one part, or an array of parts', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool(Charts);
    const chart = await call(toolkit, 'chart', { title: 'Q3' });
    expectToolResult(chart);
    expect(chart).toMatchObject({ forLLM: 'Chart: Q3\n[image: image/png, 70 bytes]', toolCallId: expect.any(String), name: 'chart' });
    expect(chart.content).toEqual([{ type: 'text', text: 'Chart: Q3' }, { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }]);

    const parts = await call(toolkit, 'parts');
    expect(parts.forLLM).toBe('two parts\n[audio: audio/wav, 52 bytes]');
    expect(parts.content?.map((p) => p.type)).toEqual(['text', 'audio']);

    const one = await call(toolkit, 'one_part');
    expect(one.content).toEqual([{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }]);
  });

  it('a plain object that only looks like a part stays data', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool(Charts);
    const result = await call(toolkit, 'look_alike');
    expect(result.content).toBeUndefined();
    expect(result.forLLM).toBe('[{"type":"text","text":"just data"}]');
    expect(result.data).toEqual([{ type: 'text', text: 'just data' }]);
  });

  it('a helper given bad data fails the call with the fault named, not the process', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool(Charts);
    const result = await call(toolkit, 'bad_helper');
    expectToolResult(result);
    expect(result.isError).toBe(true);
    expect(result.forLLM).toMatch(/imageContent: data is not base64: character " " at index 3/);
  });

  it('a hand-made ToolResult with malformed parts becomes an INVALID_CONTENT error naming each fault', async () => {
    const toolkit = newToolkit();
    const hostile: unknown[][] = [
      [{ type: 'image', data: 'a-b_', mimeType: 'image/png' }],
      [{ type: 'text', text: 'fine' }, { type: 'image', data: RED_PIXEL_PNG }, { type: 'audio', data: 42, mimeType: 'audio/wav' }],
      [null],
      [{ type: 'text', text: 'x', annotations: { priority: Number.NaN } }],
      [{ type: 'resource', resource: { uri: 'file:///x' } }],
    ];
    const tools: AgentTool[] = hostile.map((content, i) =>
      agentTool(`hostile_${i}`, () => ({ forLLM: 'looks fine', silent: false, isError: false, async: false, content })),
    );
    for (const tool of tools) toolkit.registerTool(tool);
    const texts: string[] = [];
    for (const tool of tools) {
      const result = await call(toolkit, tool.name);
      expectToolResult(result);
      expect(result.isError).toBe(true);
      expect(result.error?.code).toBe('INVALID_CONTENT');
      expect(result.content).toBeUndefined();
      texts.push(result.forLLM);
    }
    expect(texts[0]).toMatch(/^Tool 'hostile_0' returned malformed content: part 1 \(image\): data is not base64/);
    expect(texts[1]).toMatch(/part 2 \(image\): mimeType is missing \(and 1 more malformed part\)/);
    expect(texts[2]).toMatch(/part 1: is null, not a content part object/);
    expect(texts[3]).toMatch(/priority must be a number from 0 to 1, got NaN/);
    expect(texts[4]).toMatch(/resource must have either text or blob/);
  });

  it('content that is not an array is refused too', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool(agentTool('not_array', () => ({ forLLM: 'x', silent: false, isError: false, async: false, content: 'oops' })));
    const result = await call(toolkit, 'not_array');
    expect(result.forLLM).toMatch(/content must be an array of parts, got a string/);
  });
});
