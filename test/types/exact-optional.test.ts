import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import * as toolwright from '../../src';
import { freshToolkit, call } from '../support/toolkit';
import { diagnosticsOf, diagnosticsText, USER_COMPILER_OPTIONS } from '../support/typecheck';
import { runWithMaybeUndefined } from './fixtures/maybe-undefined-usage';
import { runWithUndefinedCallbacks } from './fixtures/optional-callbacks';

/**
 * The fixtures: the public API used as application code uses it (options and callbacks filled
 * from maybe-undefined values; frozen values changed, and handed to the SDKs).
 */
const FIXTURES = ['maybe-undefined-usage.ts', 'optional-callbacks.ts', 'frozen-values.ts'].map((name) => path.join(__dirname, 'fixtures', name));
const FROZEN = FIXTURES[2];

/** What `tsc --init` (TypeScript 5.9) turns on, plus the two decorator flags toolwright needs. */
const USER_OPTIONS: ts.CompilerOptions = { ...USER_COMPILER_OPTIONS, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true };

describe('the public API under a `tsc --init` configuration (exactOptionalPropertyTypes, noUncheckedIndexedAccess)', () => {
  it('type-checks every fixture: maybe-undefined options and callbacks, changes to frozen values refused, frozen values handed to the SDKs', () => {
    expect(diagnosticsText(diagnosticsOf(FIXTURES, USER_OPTIONS))).toBe('');
  });

  it('refuses each change to a frozen value for being readonly, not for anything else', () => {
    // without its @ts-expect-error, each mutation must be an error about a readonly member or array
    const source = fs.readFileSync(FROZEN, 'utf8');
    const bare = source.replace(/^\s*\/\/ @ts-expect-error .*\n/gm, '');
    const expected = source.match(/^\s*\/\/ @ts-expect-error /gm)?.length ?? 0;
    const found = diagnosticsOf([FROZEN], USER_OPTIONS, new Map([[FROZEN, bare]]));
    const readonly = new Set([
      2540, // Cannot assign to 'x' because it is a read-only property.
      2542, // Index signature in type '…' only permits reading.
      2704, // The operand of a 'delete' operator cannot be a read-only property.
      2339, // Property 'push' does not exist on type 'readonly …[]'.
    ]);
    expect(found.map((d) => `${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`).filter((d) => !readonly.has(Number(d.split(':')[0])))).toEqual([]);
    expect(found).toHaveLength(expected);
  });

  it('treats those undefined values as absent at run time', async () => {
    await expect(runWithMaybeUndefined()).resolves.toEqual(['closed T-1', 'pong', 'done']);
    await expect(runWithUndefinedCallbacks()).resolves.toEqual(['done', 'invoked', 'no scopes', 'after echo', 'after echo', 'after ping', 'after invoke_skill']);
  });
});

describe('`reason: string | undefined` compiled by plain tsc with "strict"', () => {
  const SOURCE = `
    import { Tool, ToolParam, ToolService } from 'toolwright';
    class Ticket { constructor(readonly user: string) {} }
    @ToolService()
    export class Tickets {
      @Tool({ description: 'Close a ticket' })
      close(
        @ToolParam({ name: 'id' }) id: string,
        @ToolParam({ name: 'reason', required: false, type: () => String }) reason: string | undefined,
        ticket: Ticket,
      ): string {
        return id + ':' + (reason ?? '-') + ':' + ticket.user;
      }
    }
    export { Ticket };
  `;

  function compile(): { Tickets: new () => object; Ticket: new (user: string) => object } {
    const { outputText } = ts.transpileModule(SOURCE, {
      compilerOptions: { ...USER_OPTIONS, module: ts.ModuleKind.CommonJS, noEmit: false },
    });
    // tsc under strictNullChecks reflects the union as Object: the case the error message now explains
    expect(outputText).toMatch(/__metadata\("design:paramtypes", \[String, Object, Ticket\]\)/);
    const exports: Record<string, unknown> = {};
    const load = (id: string): unknown => (id === 'toolwright' ? toolwright : require(id));
    new Function('exports', 'require', outputText)(exports, load);
    return exports as never;
  }

  it('registers with a type thunk and runs, the context injected by type', async () => {
    const { Tickets, Ticket } = compile();
    const toolkit = freshToolkit({ context: toolwright.ToolExecutionContext.builder().register(new Ticket('ada')).build() });
    toolkit.registerTool(Tickets);
    expect(toolkit.getTool('close')!.parameters).toMatchObject({ properties: { reason: { type: 'string' } }, required: ['id'] });
    await expect(call(toolkit, 'close', { id: 'T-1' })).resolves.toMatchObject({ isError: false, forLLM: 'T-1:-:ada' });
    await expect(call(toolkit, 'close', { id: 'T-1', reason: 'dup' })).resolves.toMatchObject({ forLLM: 'T-1:dup:ada' });
  });
});
