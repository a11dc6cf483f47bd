import * as path from 'node:path';
import { main } from '../../src/build/toolwright-schema-cli';
import { Toolkit, loadManifest } from '../../src';
import { NotesService, UserContext } from '../../examples/demo/services';
import { createSampleToolkit, SAMPLE_MANIFEST_PATH } from '../../examples/demo/create-toolkit';
import { ToolExecutionContext } from '../../src';

describe('the demo services and their build-time manifest', () => {
  it('examples/demo/tools.manifest.json is what toolwright-schema generates now (npm run build refreshes it)', () => {
    const errors: string[] = [];
    const code = main(['examples/demo/services/*.ts', '-o', 'examples/demo/tools.manifest.json', '--check'], {
      cwd: path.resolve(__dirname, '../..'),
      stderr: (text) => errors.push(text),
      stderrIsTTY: false,
    });
    expect(errors.join('')).not.toContain('stale');
    expect(code).toBe(0);
  });

  it('NotesService needs the manifest for its names, and gets exact schemas from it', () => {
    const bare = new Toolkit();
    expect(() => bare.registerTool(NotesService)).toThrow(/NotesService\.saveNote.*toolwright-schema manifest/s);

    const toolkit = new Toolkit({ manifest: loadManifest(SAMPLE_MANIFEST_PATH) });
    toolkit.registerTool(NotesService);
    const saveNote = toolkit.getToolSchemas().find((t) => t.name === 'save_note')!;
    expect(saveNote.description).toBe('Save a note for the current user.');
    expect(saveNote.parameters).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', description: 'Short title of the note' },
        priority: { type: 'string', description: 'How urgent the note is', enum: ['high', 'low', 'normal'], default: 'normal' },
        tags: { type: 'array', description: 'Labels to file the note under, e.g. ["work"]', items: { type: 'string' } },
      },
      required: ['title'],
      additionalProperties: false,
    });
  });

  it('marks the declared preset and leaves out ToolResult envelopes as output schemas', () => {
    const manifest = loadManifest(SAMPLE_MANIFEST_PATH);
    const sendEmail = manifest.classes.EmailService.methods.sendEmail;
    expect(sendEmail.returns).toBeUndefined();
    expect(sendEmail.params.find((p) => p.name === 'apiKey')).toMatchObject({ kind: 'injected', injected: 'preset' });
    expect(manifest.classes.NotesService.methods.saveNote.returns).toMatchObject({ type: 'object' });
  });

  it('validates with the exact schema: enum violations and wrong item types are rejected field by field', async () => {
    const toolkit = createSampleToolkit();
    const context = ToolExecutionContext.of(new UserContext('u-1', 'Ada', 'acme'));
    const bad = await toolkit.callTool({ id: 'c1', name: 'save_note', arguments: { title: 'x', priority: 'urgent', tags: ['a', 3] } }, { context });
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
    expect(bad.forLLM).toContain(`'priority': must be one of ["high","low","normal"], got "urgent"`);
    expect(bad.forLLM).toContain(`'tags[1]': must be string, got integer`);
    const good = await toolkit.callTool({ id: 'c2', name: 'save_note', arguments: '{"title":"x","tags":null}' }, { context });
    expect(good.data).toEqual({ id: 1, title: 'x', priority: 'normal', tags: [], owner: 'Ada' });
  });
});
