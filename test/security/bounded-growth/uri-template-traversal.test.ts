import 'reflect-metadata';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resource, ResourceParam, Toolkit } from '../../../src';
import { parseUriTemplate } from '../../../src/utils/uri-template';
import { serveMcpHttp } from '../../../src/mcp';
import { Closer } from '../../support/mcp';
import { sdkClient } from '../../support/mcp-http';

/**
 * Security item 11: a resource template's one-segment variable used to receive `/`, `..` and NUL
 * after percent-decoding (`files://docs/..%2Fsecret.txt`), so a resource method that joins it to
 * a folder read outside it. Now a `{var}` never decodes to `/` or `\`, `.` or `..`, a `{+var}`
 * never has a `.` or `..` segment, and no value holds a control character: such a URI matches no
 * template ("not found") and the method never runs.
 */
const closer = new Closer();
const root = mkdtempSync(join(tmpdir(), 'toolwright-uri-'));
const docs = join(root, 'public', 'docs');
mkdirSync(join(docs, 'sub'), { recursive: true });
writeFileSync(join(docs, 'readme.txt'), 'public readme');
writeFileSync(join(docs, 'sub', 'notes.txt'), 'public notes');
writeFileSync(join(root, 'public', 'secret.txt'), 'TOP-SECRET-4d1f');
afterEach(() => closer.closeAll());
afterAll(() => rmSync(root, { recursive: true, force: true }));

const reads: string[] = [];

/** What a developer writes: the template variable joined to a folder, trusting the template. */
class Files {
  @Resource({ uriTemplate: 'files://docs/{name}', name: 'doc' })
  doc(@ResourceParam('name') name: string): string {
    reads.push(name);
    return readFileSync(join(docs, name), 'utf8');
  }

  @Resource({ uriTemplate: 'files://tree/{+path}', name: 'tree' })
  tree(@ResourceParam('path') path: string): string {
    reads.push(path);
    return readFileSync(join(docs, path), 'utf8');
  }
}

describe('resource templates refuse path-walking values', () => {
  test('over MCP HTTP (official client): traversal URIs are "not found", the method never runs, the secret never leaves', async () => {
    const toolkit = new Toolkit();
    toolkit.registerTool(new Files());
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'files', version: '0' }));
    const { client } = await sdkClient(closer, http.url);
    const attacks = [
      'files://docs/..%2Fsecret.txt',
      'files://docs/..%2fsecret.txt',
      'files://docs/%2E%2E%2Fsecret.txt',
      'files://docs/..%5Csecret.txt',
      'files://docs/%2E%2E',
      'files://docs/..',
      'files://docs/readme.txt%00.png',
      'files://docs/readme%0A.txt',
      'files://tree/../secret.txt',
      'files://tree/sub/../../secret.txt',
      'files://tree/sub/%2E%2E/%2E%2E/secret.txt',
      'files://tree/sub%2F..%2F..%2Fsecret.txt',
      'files://tree/./readme.txt',
      'files://tree/readme.txt%00',
    ];
    for (const uri of attacks) {
      const failure = await client.client.readResource({ uri }).then(
        (result) => JSON.stringify(result),
        (error: { code?: number }) => error.code,
      );
      expect([uri, failure]).toEqual([uri, -32002]);
    }
    expect(reads).toEqual([]);
    const legit = await Promise.all(['files://docs/readme.txt', 'files://tree/sub/notes.txt', 'files://docs/sub%20dir..txt'].map((uri) =>
      client.client.readResource({ uri }).then((result) => (result.contents[0] as { text: string }).text, (error: { code?: number; message?: string }) => `error ${error.code}`),
    ));
    expect(legit[0]).toBe('public readme');
    expect(legit[1]).toBe('public notes');
    expect(legit[2]).not.toContain('TOP-SECRET'); // a name with dots in it still matches (and is simply missing)
    expect(reads).toEqual(['readme.txt', 'sub/notes.txt', 'sub dir..txt']);
  });

  test('each kind of expression: segments, reserved and fragment paths, query text', () => {
    const match = (template: string, uri: string) => parseUriTemplate(template, 'T.m').match(uri);
    // one-segment variables: simple, path, label, exploded items
    expect(match('x://{a}', 'x://a%2Fb')).toBeUndefined();
    expect(match('x://{a}', 'x://a%5Cb')).toBeUndefined();
    expect(match('x://{a}', 'x://.')).toBeUndefined();
    expect(match('x://{a}', 'x://%2e')).toBeUndefined();
    expect(match('x://{a}', 'x://...')).toEqual({ a: '...' });
    expect(match('x://{a}', 'x://a..b')).toEqual({ a: 'a..b' });
    expect(match('x://r{/a}', 'x://r/%2E%2E')).toBeUndefined();
    expect(match('x://r{/a*}', 'x://r/ok/..')).toBeUndefined();
    expect(match('x://r{/a*}', 'x://r/ok/a%2Fb')).toBeUndefined();
    expect(match('x://r{/a*}', 'x://r/ok/fine')).toEqual({ a: ['ok', 'fine'] });
    expect(match('x://f{.ext}', 'x://f.%2E')).toBeUndefined();
    expect(match('x://{list*}', 'x://a,..')).toBeUndefined();
    // reserved and fragment: spans segments, never a dot segment
    expect(match('x://{+p}', 'x://a/b/c')).toEqual({ p: 'a/b/c' });
    expect(match('x://{+p}', 'x://a/..')).toBeUndefined();
    expect(match('x://{+p}', 'x://a\\..\\b')).toBeUndefined();
    expect(match('x://{+p}', 'x://a/.../b')).toEqual({ p: 'a/.../b' });
    expect(match('x://page{#s}', 'x://page#a/../b')).toBeUndefined();
    // control characters, NUL and DEL included, in every kind
    for (const [template, uri] of [
      ['x://{a}', 'x://a%00'],
      ['x://{+p}', 'x://a/%00/b'],
      ['x://{+p}', 'x://a%1Fb'],
      ['x://i{?q}', 'x://i?q=a%00b'],
      ['x://i{;q}', 'x://i;q=a%7Fb'],
      ['x://i{&q}', 'x://i&q=%C2%85'],
    ]) {
      expect([template, uri, match(template, uri)]).toEqual([template, uri, undefined]);
    }
    // query values are free text otherwise
    expect(match('x://search{?q}', 'x://search?q=a%2F..%2Fb')).toEqual({ q: 'a/../b' });
  });
});
