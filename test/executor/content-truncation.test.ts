import { Container } from 'inversify';
import { contentResult, createTruncationHook, embeddedResource, imageContent, textContent, Toolkit, type ToolContent } from '../../src';
import { RED_PIXEL_PNG } from '../support/content';
import { agentTool } from '../support/toolkit';

const long = (ch: string, n: number): string => ch.repeat(n);

function parts(): ToolContent[] {
  return [
    textContent(long('a', 3000)),
    imageContent(RED_PIXEL_PNG, 'image/png'),
    embeddedResource({ uri: 'file:///log.txt', mimeType: 'text/plain', text: long('r', 1000) }),
    textContent(long('u', 5000), { audience: ['user'] }),
  ];
}

function textLength(part: ToolContent): number {
  if (part.type === 'text') return part.text.length;
  return part.type === 'resource' && 'text' in part.resource ? part.resource.text.length : 0;
}

describe('maxResultChars and content parts', () => {
  it('cuts the text parts the model gets in proportion, keeps binary parts whole and user-only text untouched', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(agentTool('report', () => contentResult(parts()), { maxResultChars: 400 }));
    const result = await toolkit.callTool({ id: 'c1', name: 'report', arguments: {} });
    expect(result.isError).toBe(false);
    expect(result.forLLM.length).toBeLessThanOrEqual(400);
    const [text, image, resource, userText] = result.content!;
    expect(textLength(text) + textLength(resource)).toBeLessThanOrEqual(400);
    expect(textLength(text)).toBeGreaterThan(textLength(resource)); // a share in proportion to its length
    expect(text.type === 'text' && text.text).toMatch(/^a+\n\[… \d+ characters truncated …\]\na+$/);
    expect(resource).toMatchObject({ type: 'resource', resource: { uri: 'file:///log.txt', mimeType: 'text/plain' } });
    expect(image).toEqual({ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' });
    expect(userText).toEqual(textContent(long('u', 5000), { audience: ['user'] }));
  });

  it('leaves parts that fit as they are', async () => {
    const toolkit = new Toolkit({ container: new Container(), maxResultChars: 10_000 });
    const made = contentResult(parts());
    toolkit.registerTool(agentTool('report', () => made));
    const result = await toolkit.callTool({ id: 'c2', name: 'report', arguments: {} });
    expect(result.content).toBe(made.content);
  });

  it('createTruncationHook applies the same cut, and with includeUserText cuts user-only parts too', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(agentTool('report', () => contentResult(parts())));
    toolkit.use(createTruncationHook({ maxResultChars: 300, includeUserText: true }));
    const result = await toolkit.callTool({ id: 'c3', name: 'report', arguments: {} });
    const lengths = result.content!.map(textLength);
    expect(lengths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(300);
    expect(result.content![1]).toEqual({ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' });
    expect(result.content![3]).toMatchObject({ type: 'text', annotations: { audience: ['user'] } });
  });
});
