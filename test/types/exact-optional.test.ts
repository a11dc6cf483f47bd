import 'reflect-metadata';
import path from 'node:path';
import ts from 'typescript';
import * as toolwright from '../../src';
import { freshToolkit, call } from '../support/toolkit';
import { runWithMaybeUndefined } from './fixtures/maybe-undefined-usage';

const FIXTURE = path.join(__dirname, 'fixtures', 'maybe-undefined-usage.ts');

/** What `tsc --init` (TypeScript 5.9) turns on, plus the two decorator flags toolwright needs. */
const USER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  skipLibCheck: true,
  types: ['node'],
  noEmit: true,
};

function diagnosticsText(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  });
}

describe('exactOptionalPropertyTypes (on in `tsc --init` since TypeScript 5.9)', () => {
  it('accepts maybe-undefined values in every public options type', () => {
    const program = ts.createProgram([FIXTURE], USER_OPTIONS);
    const file = program.getSourceFile(FIXTURE)!;
    const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    expect(diagnosticsText(diagnostics)).toBe('');
  });

  it('treats those undefined values as absent at run time', async () => {
    await expect(runWithMaybeUndefined()).resolves.toEqual(['closed T-1', 'pong', 'done']);
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
