import 'reflect-metadata';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Prompt, PromptArg, Resource, ResourceParam, ToolService, ToolkitError, fromContainer, type Toolkit } from '../../../src';
import { Closer, connectInMemory } from '../../support/mcp';
import { eventsText, recordEvents } from '../../support/events';
import { freshToolkit } from '../../support/toolkit';

/**
 * Attack: resource and prompt methods with presets (an API key, a rotating token, a container
 * secret) echo them — in text, JSON, URIs, thrown errors, binary content, prompt messages and
 * completion values — and a client sends a preset's name as an argument. No preset value reaches
 * a listing, a read, a prompt message, an error, an event or an MCP response; binary content that
 * holds one is withheld; a client can neither see nor set a preset argument.
 */

const API_KEY = 'sk-live-3f9a1c77e0b2';
const CONTAINER_SECRET = 'db-password-51f2aa';
let rotation = 0;
const rotatingToken = () => `tok-${(++rotation).toString().padStart(6, '0')}-rotating`;

@ToolService({ group: 'vault' })
class VaultCatalog {
  @Resource({ uri: 'vault://config', name: 'config', description: 'Configuration' })
  config(@ResourceParam({ name: 'apiKey', preset: true }) apiKey: string): object {
    return { endpoint: `https://api.example.com/?key=${encodeURIComponent(apiKey)}`, apiKey };
  }

  @Resource({ uriTemplate: 'vault://items/{id}', name: 'item' })
  item(@ResourceParam('id') id: string, @ResourceParam({ name: 'token', preset: true }) token: string): string {
    if (id === 'fail') throw new Error(`upstream refused token ${token}`);
    return `item ${id} fetched with ${token}`;
  }

  @Resource({ uri: 'vault://dump', name: 'dump', mimeType: 'application/octet-stream' })
  dump(@ResourceParam({ name: 'password', preset: true }) password: string): Buffer {
    return Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(password), Buffer.from([255])]);
  }

  @Resource({ uri: 'vault://links', name: 'links' })
  links(@ResourceParam({ name: 'apiKey', preset: true }) apiKey: string) {
    return { contents: [{ uri: `vault://links?key=${apiKey}`, text: 'see uri' }] };
  }

  @Prompt({ name: 'ask', description: 'Ask the API' })
  ask(
    @PromptArg({ name: 'question', description: 'The question', complete: () => [`use ${API_KEY}`, 'plain'] }) question: string,
    @PromptArg({ name: 'apiKey', preset: true }) apiKey: string,
  ) {
    return [
      { role: 'user' as const, content: `${question} (authorised by ${apiKey})` },
      { role: 'user' as const, content: { type: 'resource_link' as const, uri: `https://api.example.com/?key=${apiKey}`, name: 'api' } },
    ];
  }

  @Prompt({ name: 'leaky_image', description: 'An image that holds the key' })
  leakyImage(@PromptArg({ name: 'apiKey', preset: true }) apiKey: string) {
    return [{ role: 'user' as const, content: { type: 'image' as const, data: Buffer.from(`PNG${apiKey}`), mimeType: 'image/png' } }];
  }
}

function vaultToolkit(): Toolkit {
  const toolkit = freshToolkit();
  toolkit.container.bind('DB_PASSWORD').toConstantValue(CONTAINER_SECRET);
  toolkit
    .registration()
    .tool(VaultCatalog)
    .presetParameters({
      'resource:config': { apiKey: API_KEY },
      'resource:links': { apiKey: API_KEY },
      'resource:item': { token: rotatingToken },
      'resource:dump': { password: fromContainer('DB_PASSWORD') },
      'prompt:ask': { apiKey: API_KEY },
      'prompt:leaky_image': { apiKey: API_KEY },
    })
    .apply();
  return toolkit;
}

const SECRETS = [API_KEY, CONTAINER_SECRET, encodeURIComponent(API_KEY), 'tok-0000'];
function expectNoSecret(value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('resolved');
    },
    (e: unknown) => e as Error,
  );
}

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('secrets: presets of resources and prompts never leave', () => {
  it('listings show no preset argument; reads and prompt messages have every preset value redacted', async () => {
    const toolkit = vaultToolkit();
    const events = recordEvents(toolkit);
    expect(toolkit.prompts.list().find((p) => p.name === 'ask')!.arguments).toEqual([{ name: 'question', description: 'The question', required: true }]);
    const config = await toolkit.resources.read('vault://config');
    expect(JSON.parse((config.contents[0] as { text: string }).text)).toEqual({ endpoint: 'https://api.example.com/?key=[REDACTED]', apiKey: '[REDACTED]' });
    const item = await toolkit.resources.read('vault://items/7');
    expect(item.contents[0]).toMatchObject({ text: 'item 7 fetched with [REDACTED]' });
    expect((await toolkit.resources.read('vault://links')).contents).toEqual([{ uri: 'vault://links?key=[REDACTED]', text: 'see uri' }]);
    const prompt = await toolkit.prompts.get('ask', { question: 'Status?' });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Status? (authorised by [REDACTED])' } },
      { role: 'user', content: { type: 'resource_link', uri: 'https://api.example.com/?key=[REDACTED]', name: 'api' } },
    ]);
    expect((await toolkit.prompts.complete('ask', 'question', '')).values).toEqual(['use [REDACTED]', 'plain']);
    expectNoSecret([toolkit.resources.list(), toolkit.resources.templates(), toolkit.prompts.list(), config, item, prompt]);
    expectNoSecret(eventsText(events.events));
  });

  it('errors hold no preset value, rotating ones included', async () => {
    const toolkit = vaultToolkit();
    const error = await failure(toolkit.resources.read('vault://items/fail'));
    expect(ToolkitError.is(error, 'EXECUTION_FAILED')).toBe(true);
    expect(error.message).toBe("Reading resource 'item' failed: upstream refused token [REDACTED]");
  });

  it('binary content holding a preset value is withheld, whole', async () => {
    const toolkit = vaultToolkit();
    const dump = await failure(toolkit.resources.read('vault://dump'));
    expect(ToolkitError.is(dump, 'RESULT_WITHHELD')).toBe(true);
    expect(dump.message).toBe("resource 'dump' was withheld: its binary content holds a preset value.");
    const image = await failure(toolkit.prompts.get('leaky_image'));
    expect(ToolkitError.is(image, 'RESULT_WITHHELD')).toBe(true);
  });

  it('a client can neither see nor set a preset argument', async () => {
    const toolkit = vaultToolkit();
    const error = await failure(toolkit.prompts.get('ask', { question: 'q', apiKey: 'attacker-key' }));
    expect(error.message).toBe("Invalid arguments for prompt 'ask':\n- 'apiKey': is not an argument of prompt 'ask' (remove it)");
    expect(await toolkit.prompts.complete('ask', 'apiKey', '')).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('over MCP: responses and errors, as the client receives them, hold no preset value', async () => {
    const toolkit = vaultToolkit();
    const { client } = await connectInMemory(toolkit, closer);
    const c = client.client;
    const answers = [
      await c.listResources(),
      await c.listResourceTemplates(),
      await c.listPrompts(),
      await c.readResource({ uri: 'vault://config' }),
      await c.readResource({ uri: 'vault://items/9' }),
      await c.getPrompt({ name: 'ask', arguments: { question: 'q' } }),
      await c.complete({ ref: { type: 'ref/prompt', name: 'ask' }, argument: { name: 'question', value: '' } }),
    ];
    expectNoSecret(answers);
    const errors = [
      await failure(c.readResource({ uri: 'vault://items/fail' })),
      await failure(c.readResource({ uri: 'vault://dump' })),
      await failure(c.getPrompt({ name: 'ask', arguments: { question: 'q', apiKey: 'x' } })),
    ] as McpError[];
    expect(errors.map((e) => e.code)).toEqual([-32603, -32603, -32602]);
    expect(errors[1].data).toEqual({ code: 'RESULT_WITHHELD' });
    expectNoSecret(errors.map((e) => `${e.message} ${JSON.stringify(e.data)}`));
  });
});
