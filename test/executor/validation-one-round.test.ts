import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, Contains, IsDateString, IsInt, IsString, IsUrl, Matches, Min, ValidateBy, ValidateNested } from 'class-validator';
import { Tool, ToolParam } from '../../src';
import { call, freshToolkit } from '../support/toolkit';
import { objectSchema } from '../support/schemas';

const SECRET = 'sk-live-4f9a8b7c6d5e4f3a2b1c';

class LinkDto {
  @IsUrl() url!: string;
  @IsDateString() on!: string;
  @IsInt() @Min(1) clicks!: number;
  // flags cannot be written in a JSON Schema pattern: class-validator alone checks this one
  @Matches(/^[a-z]+$/i) slug!: string;
}

/** How many labels class-validator has looked at: the proof that a list was (not) walked. */
let labelsChecked = 0;
const Counted = () => ValidateBy({ name: 'counted', validator: { validate: () => (labelsChecked++, true) } });

class TagDto {
  @IsString() @Contains('#', { message: 'label $value lacks a hash' }) @Counted() label!: string;
}

class BoardDto {
  @ArrayMaxSize(3) @ValidateNested({ each: true }) @Type(() => TagDto) tags!: TagDto[];
}

const calls: unknown[] = [];

class Links {
  @Tool({ name: 'save_link', description: 'Save a link' })
  save(@ToolParam({ name: 'link' }) link: LinkDto, @ToolParam({ name: 'count', required: false, integer: true }) count?: number): string {
    calls.push([link, count]);
    return `${link.url}@${link.on}`;
  }

  @Tool({ name: 'tag', description: 'Tag things' })
  tag(@ToolParam({ name: 'tags', type: () => [TagDto] }) tags: TagDto[], @ToolParam({ name: 'apiKey' }) apiKey: string): string {
    calls.push([tags, apiKey]);
    return 'tagged';
  }

  @Tool({ name: 'board', description: 'Save a board' })
  board(@ToolParam({ name: 'board' }) board: BoardDto): string {
    calls.push(board);
    return 'saved';
  }
}

function setup() {
  calls.length = 0;
  const toolkit = freshToolkit();
  toolkit.registration().tool(Links).presetParameters({ tag: { apiKey: SECRET } }).apply();
  return toolkit;
}

const problemLines = (forLLM: string): string[] => forLLM.split('\n').slice(1, -1);
const valid = { url: 'example.com', on: '2026-11-22', clicks: 1, slug: 'AbC' };

describe('one validation round, schema and class-validator problems in one answer', () => {
  it('lists the schema’s problems and the class-validator-only ones together, each path once', async () => {
    const toolkit = setup();
    const result = await call(toolkit, 'save_link', { link: { url: 'not a url', on: 'soon', clicks: 0, slug: 'a-b' }, count: 1.5 });
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(problemLines(result.forLLM).sort()).toEqual(
      [
        // the schema's
        "- 'link.clicks': must be >= 1 (got 0)",
        "- 'count': must be integer, got number",
        // class-validator's, for what the schema cannot say (its @Min(1) on clicks is not repeated)
        "- 'link.url': url must be a URL address",
        "- 'link.on': on must be a valid ISO 8601 date string",
        "- 'link.slug': slug must match /^[a-z]+$/i regular expression",
      ].sort(),
    );
    expect(calls).toEqual([]);
  });

  it('adversarial: a value that passes the schema and fails class-validator is caught beside a schema error elsewhere', async () => {
    const toolkit = setup();
    const result = await call(toolkit, 'save_link', { link: { ...valid, slug: 'no spaces allowed' }, count: 'two' });
    expect(problemLines(result.forLLM).sort()).toEqual(["- 'count': must be integer, got string", "- 'link.slug': slug must match /^[a-z]+$/i regular expression"]);
    expect(calls).toEqual([]);
  });

  it('adversarial: a value that passes class-validator and fails the schema is refused by the schema alone', async () => {
    const toolkit = setup();
    // class-validator has no whitelist: an extra key passes it; the schema closes the DTO
    const result = await call(toolkit, 'save_link', { link: { ...valid, admin: true } });
    expect(problemLines(result.forLLM)).toEqual(["- 'link.admin': is not a parameter of this tool (remove it)"]);
    expect(calls).toEqual([]);
    expect((await call(toolkit, 'save_link', { link: valid })).forLLM).toBe('example.com@2026-11-22');
  });

  it('@IsDateString keeps no format: class-validator takes bare dates that format date-time refuses', async () => {
    const toolkit = setup();
    expect(objectSchema(toolkit.getToolSchemas().find((s) => s.name === 'save_link')!.parameters.properties.link).properties!.on).toEqual({ type: 'string' });
    for (const on of ['2026-11-22', '2026-W47', '2026-11-22T10:00', '20261122T100000Z']) {
      expect((await call(toolkit, 'save_link', { link: { ...valid, on } })).isError).toBe(false);
    }
    // and what format date-time would take but class-validator refuses: lowercase t, a leap second
    for (const on of ['2026-11-22t10:00:00z', '2026-12-31T23:59:60Z']) {
      expect(problemLines((await call(toolkit, 'save_link', { link: { ...valid, on } })).forLLM)).toEqual(["- 'link.on': on must be a valid ISO 8601 date string"]);
    }
  });

  it('stays bounded: a list the schema refuses as a whole is not walked by class-validator', async () => {
    const toolkit = setup();
    const tags = Array.from({ length: 100_000 }, () => ({ label: 'no hash' }));
    labelsChecked = 0;
    const result = await call(toolkit, 'board', { board: { tags } });
    expect(labelsChecked).toBe(0);
    expect(problemLines(result.forLLM)).toEqual(["- 'board.tags': must NOT have more than 3 items"]);
  });

  it('stays bounded: 100k schema problems whose paths class-validator would repeat give 20 lines and a count', async () => {
    const toolkit = setup();
    const tags = Array.from({ length: 100_000 }, () => ({ label: 5 }));
    const started = Date.now();
    const result = await call(toolkit, 'tag', { tags });
    // linear work, loosely bounded (a walk per problem would be 10^10 steps)
    expect(Date.now() - started).toBeLessThan(30_000);
    const lines = problemLines(result.forLLM);
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe("- 'tags[0].label': must be string, got integer");
    expect(lines[20]).toBe('- … and 99980 more problem(s) not listed');
  });

  it('redacts preset values from class-validator’s messages before they are cut', async () => {
    const toolkit = setup();
    const label = `${SECRET}${'x'.repeat(400)}`;
    const result = await call(toolkit, 'tag', { tags: [{ label }], apiKey: 'mine' });
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(problemLines(result.forLLM)[0]).toBe("- 'apiKey': is not a parameter of this tool (remove it)");
    expect(result.forLLM).toContain("'tags[0].label': label ");
    expect(result.forLLM).not.toContain(SECRET.slice(0, 8));
    expect(calls).toEqual([]);
  });
});
