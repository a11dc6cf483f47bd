import { Prompt, PromptArg, Resource, ResourceParam, ToolService } from '../../src';
import { freshToolkit } from '../support/toolkit';
import { Closer, connectInMemory } from '../support/mcp';

@ToolService({ group: 'docs' })
class Docs {
  @Resource({ uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown' })
  readme(): string {
    return '# Hello';
  }

  @Resource({ uriTemplate: 'docs://pages/{id}', name: 'page' })
  page(@ResourceParam({ name: 'id', integer: true, complete: (v) => ['1', '12'].filter((x) => x.startsWith(v)) }) id: number): object {
    return { id };
  }

  @Prompt({ description: 'Review' })
  review(@PromptArg({ name: 'pr', description: 'PR' }) pr: string): string {
    return `Review ${pr}`;
  }
}

const closer = new Closer();
afterEach(() => closer.closeAll());

test('smoke mcp', async () => {
  const toolkit = freshToolkit();
  toolkit.registerTool(Docs);
  const { client } = await connectInMemory(toolkit, closer);
  const c = client.client;
  console.log(JSON.stringify(c.getServerCapabilities()));
  console.log(JSON.stringify(await c.listResources()));
  console.log(JSON.stringify(await c.listResourceTemplates()));
  console.log(JSON.stringify(await c.readResource({ uri: 'docs://pages/12' })));
  console.log(JSON.stringify(await c.listPrompts()));
  console.log(JSON.stringify(await c.getPrompt({ name: 'review', arguments: { pr: '3' } })));
  console.log(await c.getPrompt({ name: 'review', arguments: {} }).catch((e) => String(e)));
  console.log(await c.readResource({ uri: 'docs://nope' }).catch((e) => `${e.code} ${e}`));
  console.log(JSON.stringify(await c.complete({ ref: { type: 'ref/resource', uri: 'docs://pages/{id}' }, argument: { name: 'id', value: '1' } })));
  await c.subscribeResource({ uri: 'docs://readme' });
});
