import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';
import * as ts from 'typescript';
import { Toolkit } from '../../src';
import { thrown } from '../support/errors';
import { ROOT } from '../support/child-process';

/**
 * A class imported with `import type` (what typescript-eslint's consistent-type-imports autofix
 * writes for a class used only as a parameter type) is erased by the compiler: its decorator
 * metadata says Function (tsc). Real tsc output of a tiny service, once with `import type` and once with
 * value imports, loaded and registered.
 */
jest.setTimeout(60_000);

const DTO = `import { IsInt, IsString, Min } from 'class-validator';
export class OrderDto {
  @IsString() sku!: string;
  @IsInt() @Min(1) quantity!: number;
}
`;
const CALLER = `export class Caller {
  constructor(readonly id: string) {}
}
`;

/** The service, importing the DTO and the context class as `how` says. */
function service(how: 'import type' | 'import', param: 'dto' | 'context'): string {
  const body =
    param === 'dto'
      ? `place(@ToolParam({ name: 'order' }) order: OrderDto): string { return order.sku; }`
      : `whoAmI(@ToolParam({ name: 'verbose' }) verbose: boolean, caller: Caller): string { return verbose ? caller.id : ''; }`;
  return `import { Tool, ToolParam } from 'toolwright';
${how} { OrderDto } from './order-dto';
${how} { Caller } from './caller';
export class Orders {
  @Tool({ description: 'An order tool' })
  ${body}
}
`;
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-import-type-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Compiles the service with tsc's program (decorator metadata on) and loads its `Orders` class. */
function compiled(how: 'import type' | 'import', param: 'dto' | 'context'): new () => object {
  const src = path.join(dir, `${how.replace(' ', '-')}-${param}`);
  fs.mkdirSync(src);
  fs.writeFileSync(path.join(src, 'order-dto.ts'), DTO);
  fs.writeFileSync(path.join(src, 'caller.ts'), CALLER);
  fs.writeFileSync(path.join(src, 'orders.ts'), service(how, param));
  const program = ts.createProgram([path.join(src, 'orders.ts')], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    strict: true,
    skipLibCheck: true,
    types: [],
    outDir: src,
  });
  const emitted = program.emit();
  expect(emitted.emitSkipped).toBe(false);
  // the temporary folder has no node_modules: point the two packages at this repository's
  for (const file of ['orders.js', 'order-dto.js']) {
    const out = path.join(src, file);
    const code = fs.readFileSync(out, 'utf8')
      .replace(/require\("toolwright"\)/g, `require(${JSON.stringify(path.join(ROOT, 'src'))})`)
      .replace(/require\("class-validator"\)/g, `require(${JSON.stringify(require.resolve('class-validator'))})`);
    fs.writeFileSync(out, code);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(path.join(src, 'orders.js')) as { Orders: new () => object }).Orders;
}

describe('a class erased by `import type`', () => {
  it('a DTO parameter: the error names `import type` as the likely cause and both fixes', () => {
    const Orders = compiled('import type', 'dto');
    const error = thrown(() => new Toolkit().registerTool(Orders), 'INVALID_DEFINITION');
    expect(error.message).toContain("Orders.place parameter 'order' (#0): its type is unknown: reflection saw Function");
    expect(error.message).toContain("imported with `import type` (the autofix of typescript-eslint's consistent-type-imports rule)");
    expect(error.message).toContain("import it as a value (`import { TheClass } from '…'`) or name it in the decorator: @ToolParam({ type: () => TheClass })");
  });

  it('a context parameter: the error names `import type` and @InjectContext', () => {
    const Orders = compiled('import type', 'context');
    const error = thrown(() => new Toolkit().registerTool(Orders), 'UNRESOLVABLE_PARAMETER');
    expect(error.message).toContain('Orders.whoAmI parameter #1 has no @ToolParam and is not an injectable type (reflection saw Function)');
    expect(error.message).toContain('imported with `import type`');
    expect(error.message).toContain('@InjectContext(TheClass) for a context object');
  });

  it('the same service with value imports registers: the DTO becomes an object schema, the context is injected', async () => {
    const toolkit = new Toolkit();
    toolkit.registerTool(compiled('import', 'dto'));
    expect(toolkit.getToolSchemas()[0].parameters.properties.order).toMatchObject({ type: 'object', required: ['sku', 'quantity'] });
    const withContext = new Toolkit();
    expect(() => withContext.registerTool(compiled('import', 'context'))).not.toThrow();
  });
});
