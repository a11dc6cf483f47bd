import { parseUriTemplate } from '../../src/utils/uri-template';
import { ToolkitError } from '../../src';

const match = (template: string, uri: string) => parseUriTemplate(template, 'T.m').match(uri);

describe('parseUriTemplate: RFC 6570 templates matched against URIs', () => {
  test('simple, reserved, fragment, label, path, path-parameter and query expressions', () => {
    expect(match('test://template/{id}/data', 'test://template/123/data')).toEqual({ id: '123' });
    expect(match('test://template/{id}/data', 'test://template//data')).toBeUndefined(); // an empty value does not match
    expect(match('test://template/{id}/data', 'test://template/1/2/data')).toBeUndefined(); // '/' is not part of a simple value
    expect(match('files:///{+path}', 'files:///a/b/c.txt')).toEqual({ path: 'a/b/c.txt' });
    expect(match('docs://page{#section}', 'docs://page#intro')).toEqual({ section: 'intro' });
    expect(match('docs://page{#section}', 'docs://page')).toEqual({});
    expect(match('img://logo{.format}', 'img://logo.png')).toEqual({ format: 'png' });
    expect(match('repo://{owner}{/name,branch}', 'repo://acme/tools/main')).toEqual({ owner: 'acme', name: 'tools', branch: 'main' });
    expect(match('repo://{owner}{/name,branch}', 'repo://acme/tools')).toEqual({ owner: 'acme', name: 'tools' });
    expect(match('map://point{;x,y}', 'map://point;x=1;y=2')).toEqual({ x: '1', y: '2' });
    expect(match('api://items{?page,size}', 'api://items?page=2&size=10')).toEqual({ page: '2', size: '10' });
    expect(match('api://items{?page,size}', 'api://items?size=10')).toEqual({ size: '10' });
    expect(match('api://items{?page,size}', 'api://items')).toEqual({});
    expect(match('api://items?fixed=1{&page}', 'api://items?fixed=1&page=3')).toEqual({ page: '3' });
    expect(match('a://{x,y}', 'a://1,2')).toEqual({ x: '1', y: '2' });
  });

  test('exploded variables give lists; values are percent-decoded; a malformed escape does not match', () => {
    expect(match('files://{/path*}', 'files:///a/b/c')).toEqual({ path: ['a', 'b', 'c'] });
    expect(match('tags://{list*}', 'tags://a,b%20c')).toEqual({ list: ['a', 'b c'] });
    expect(match('users://{name}', 'users://J%C3%BCrgen%20M')).toEqual({ name: 'Jürgen M' });
    expect(match('users://{name}', 'users://%E0%A4%A')).toBeUndefined();
    expect(match('codes://{code:3}', 'codes://abc')).toEqual({ code: 'abc' });
    expect(match('codes://{code:3}', 'codes://abcd')).toBeUndefined();
  });

  test('literal parts are literal (no regular-expression meaning)', () => {
    expect(match('a.b://x+{id}(y)', 'a.b://x+7(y)')).toEqual({ id: '7' });
    expect(match('a.b://x+{id}(y)', 'aXb://x+7(y)')).toBeUndefined();
  });

  test('matching is linear: a hostile 100k-character URI against many expressions answers at once', () => {
    const template = parseUriTemplate('x://{+a}/{+b}/{+c}/{+d}/end', 'T.m');
    const hostile = `x://${'a/'.repeat(50_000)}`;
    const started = Date.now();
    expect(template.match(hostile)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test.each([
    ['', 'must have 1 to'],
    ['x://{id', "unclosed '{'"],
    ['x://id}', "'}' without its '{'"],
    ['x://{a{b}}', "'{' inside an expression"],
    ['x://{=a}', "reserved operator '='"],
    ['x://{a b}', "invalid variable name 'a b'"],
    ['x://{a}/{a}', "names the variable 'a' twice"],
    ['x://{?list*}', "explodes 'list' with '?'"],
    ['x://{?q}/more', 'query expressions last'],
    ['x://{?q}{/more}', 'query expressions last'],
  ])('refuses %j: %s', (template, problem) => {
    let thrown: unknown;
    try {
      parseUriTemplate(template, 'Docs.page');
    } catch (error) {
      thrown = error;
    }
    expect(ToolkitError.is(thrown, 'INVALID_DEFINITION')).toBe(true);
    expect((thrown as Error).message).toContain('Docs.page: URI template');
    expect((thrown as Error).message).toContain(problem);
  });
});
