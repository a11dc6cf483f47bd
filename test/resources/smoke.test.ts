import { Prompt, PromptArg, Resource, ResourceParam, ToolService } from '../../src';
import { freshToolkit } from '../support/toolkit';

@ToolService({ group: 'docs' })
class Docs {
  @Resource({ uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown' })
  readme(): string {
    return '# Hello';
  }

  @Resource({ uriTemplate: 'docs://pages/{id}', name: 'page' })
  page(@ResourceParam({ name: 'id', integer: true }) id: number): object {
    return { id, type: typeof id };
  }

  @Prompt({ description: 'Review' })
  review(@PromptArg({ name: 'pr', description: 'PR', complete: (v) => ['41', '42'].filter((x) => x.startsWith(v)) }) pr: string): string {
    return `Review ${pr}`;
  }
}

test('smoke', async () => {
  const toolkit = freshToolkit();
  toolkit.registerTool(Docs);
  expect(toolkit.resources.list()).toEqual([{ uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown' }]);
  expect(toolkit.resources.templates()).toEqual([{ uriTemplate: 'docs://pages/{id}', name: 'page' }]);
  expect(await toolkit.resources.read('docs://readme')).toEqual({ contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' }] });
  expect(await toolkit.resources.read('docs://pages/12')).toEqual({ contents: [{ uri: 'docs://pages/12', mimeType: 'application/json', text: '{"id":12,"type":"number"}' }] });
  await expect(toolkit.resources.read('docs://pages/x')).rejects.toThrow(/id/);
  expect(await toolkit.prompts.get('review', { pr: '42' })).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'Review 42' } }] });
  await expect(toolkit.prompts.get('review', {})).rejects.toThrow(/pr/);
  expect(await toolkit.prompts.complete('review', 'pr', '4')).toEqual({ values: ['41', '42'], total: 2, hasMore: false });
  toolkit.updateToolGroups(['docs'], false);
  expect(toolkit.resources.list()).toEqual([]);
  await expect(toolkit.resources.read('docs://readme')).rejects.toThrow(/not found/);
});
