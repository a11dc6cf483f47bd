import 'reflect-metadata';
import { Container } from 'inversify';
import {
  contentResult,
  createRedactionHook,
  createTruncationHook,
  embeddedResource,
  imageContent,
  resourceLink,
  SECRET_PATTERNS,
  textContent,
  Toolkit,
  type AgentTool,
  type ToolContent,
  type ToolResult,
} from '../../../src';
import { RED_PIXEL_PNG } from '../../support/content';
import { recordEvents } from '../../support/events';
import { findLeaks, traceAll } from '../../support/leaks';

const SECRET = 'svc-token-7d2e91c4ab';
/** A secret made only of base64 characters: it can hide in the base64 text itself. */
const B64_SECRET = 'QmFzZTY0U2VjcmV0WFla';

/** The UTF-8 text of every base64 `data` / `blob` reachable in `value`: what a client decoding the parts reads. */
function decodedTexts(value: unknown, out: string[] = []): string[] {
  if (typeof value !== 'object' || value === null) return out;
  for (const [key, item] of Object.entries(value)) {
    if ((key === 'data' || key === 'blob') && typeof item === 'string') out.push(Buffer.from(item, 'base64').toString('utf8'));
    else decodedTexts(item, out);
  }
  return out;
}

/** A PNG with `text` smuggled after its end (as a tEXt chunk or trailing bytes would carry it). */
function pngCarrying(text: string): Buffer {
  return Buffer.concat([Buffer.from(RED_PIXEL_PNG, 'base64'), Buffer.from(`tEXtComment\0${text}`, 'utf8')]);
}

function contentTool(name: string, build: (key: string) => ToolResult | ToolContent[]): AgentTool {
  return {
    name,
    description: `answers with content carrying its preset key (${name})`,
    parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    execute: (args) => build(String(args.key)),
  };
}

const TOOLS: readonly AgentTool[] = [
  contentTool('text_part', (key) => contentResult([`token is ${key}`, textContent(`for you: ${key}`, { audience: ['user'] })])),
  contentTool('text_resource', (key) => [embeddedResource({ uri: `secret://${key}/config`, mimeType: 'text/plain', text: `password=${key}` })]),
  contentTool('link', (key) => [
    resourceLink({ uri: `https://api.example.com/files?token=${encodeURIComponent(key)}`, name: key, title: `File of ${key}`, description: JSON.stringify({ key }) }),
  ]),
  contentTool('image_bytes', (key) => contentResult([imageContent(pngCarrying(key), 'image/png', { audience: ['user'] })])),
  contentTool('blob_bytes', (key) => [embeddedResource({ uri: 'file:///dump.bin', mimeType: 'application/octet-stream', blob: Buffer.from(`header ${key} trailer`) })]),
  contentTool('hand_made', (key) => ({
    forLLM: 'see parts',
    silent: false,
    isError: false,
    async: false,
    content: [
      { type: 'text', text: key.repeat(3) },
      { type: 'resource_link', uri: `x:${key}`, name: 'n', annotations: { lastModified: key } },
    ],
  })),
];

function toolkitWith(secret: string): Toolkit {
  const toolkit = new Toolkit({ container: new Container() });
  const registration = toolkit.registration();
  for (const tool of TOOLS) registration.tool(tool);
  registration.presetParameters(Object.fromEntries(TOOLS.map((t) => [t.name, { key: secret }]))).apply();
  return toolkit;
}

describe('secrets: content parts', () => {
  it.each(TOOLS.map((t) => t.name))('a preset value never leaves in the parts of %s (text, resource text, URIs, names, binary bytes), nor in events or traces', async (name) => {
    const toolkit = toolkitWith(SECRET);
    const recorded = recordEvents(toolkit);
    const traced = traceAll(toolkit);
    const result = await toolkit.callTool({ id: 'c1', name, arguments: '{}' });
    recorded.stop();
    traced.subscription.unsubscribe();
    for (const leaks of [
      findLeaks(result, [SECRET]),
      findLeaks(decodedTexts(result), [SECRET]),
      findLeaks(recorded.events, [SECRET]),
      findLeaks(decodedTexts(recorded.events), [SECRET]),
      findLeaks(traced.spans(), [SECRET]),
    ]) {
      expect(leaks).toEqual([]);
    }
    expect(JSON.stringify(result)).toContain('[REDACTED]');
  });

  it('a binary part that carries a secret is withheld whole, its audience kept; clean parts stay byte for byte', async () => {
    const toolkit = toolkitWith(SECRET);
    const image = await toolkit.callTool({ id: 'c2', name: 'image_bytes', arguments: {} });
    expect(image.isError).toBe(false);
    expect(image.content).toEqual([{ type: 'text', text: '[REDACTED]', annotations: { audience: ['user'] } }]);

    const text = await toolkit.callTool({ id: 'c3', name: 'text_part', arguments: {} });
    expect(text.content).toEqual([
      { type: 'text', text: 'token is [REDACTED]' },
      { type: 'text', text: 'for you: [REDACTED]', annotations: { audience: ['user'] } },
    ]);
    expect(text.forLLM).toBe('token is [REDACTED]');
  });

  it('a secret inside the base64 text itself withholds the part', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit
      .registration()
      .tool(contentTool('b64', (key) => contentResult(imageContent(`${key}${RED_PIXEL_PNG}`, 'image/png'))))
      .presetParameters({ b64: { key: B64_SECRET } })
      .apply();
    const result = await toolkit.callTool({ id: 'c4', name: 'b64', arguments: {} });
    expect(findLeaks(result, [B64_SECRET])).toEqual([]);
    expect(result.content).toEqual([{ type: 'text', text: '[REDACTED]' }]);
  });

  it('a redacted field that breaks a part makes an INVALID_CONTENT error that quotes no secret', async () => {
    const toolkit = toolkitWith(SECRET);
    const result = await toolkit.callTool({ id: 'c5', name: 'hand_made', arguments: {} });
    expect(result.error?.code).toBe('INVALID_CONTENT');
    expect(result.forLLM).toMatch(/lastModified must be an ISO 8601 date-time/);
    expect(findLeaks(result, [SECRET])).toEqual([]);
  });

  it('truncation cuts after redaction: no 8-character prefix of a secret survives in a cut text part', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit
      .registration()
      .tool(contentTool('long', (key) => contentResult([`${'a'.repeat(40)}${key}${'b'.repeat(555)}`, imageContent(RED_PIXEL_PNG, 'image/png')])))
      .presetParameters({ long: { key: SECRET } })
      .apply();
    toolkit.use(createTruncationHook({ maxResultChars: 100 }));
    const result = await toolkit.callTool({ id: 'c6', name: 'long', arguments: {} });
    expect(findLeaks(result, [SECRET])).toEqual([]);
    const [text, image] = result.content!;
    expect(text.type === 'text' && text.text.length).toBeLessThanOrEqual(100);
    expect(image).toEqual({ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' });
  });

  it('createRedactionHook scrubs its patterns from text parts and withholds binary parts that match', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(
      contentTool('mail', () =>
        contentResult([
          'write to ada@example.com',
          imageContent(pngCarrying('owner: ada@example.com'), 'image/png'),
          resourceLink({ uri: 'mailto:ada@example.com', name: 'ada@example.com' }),
          imageContent(RED_PIXEL_PNG, 'image/png'),
        ]),
      ),
    );
    toolkit.use(createRedactionHook({ patterns: [SECRET_PATTERNS.email] }));
    const result = await toolkit.callTool({ id: 'c7', name: 'mail', arguments: { key: 'x' } });
    expect(JSON.stringify(result)).not.toContain('ada@example.com');
    expect(decodedTexts(result).join('')).not.toContain('ada@example.com');
    expect(result.content).toEqual([
      { type: 'text', text: 'write to [REDACTED]' },
      { type: 'text', text: '[REDACTED]' },
      { type: 'resource_link', uri: 'mailto:[REDACTED]', name: '[REDACTED]' },
      { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
    ]);
  });
});
