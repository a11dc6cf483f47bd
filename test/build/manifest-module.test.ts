import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { main } from '../../src/build/toolwright-schema-cli';
import { manifestJsonOfModule } from '../../src/build/manifest-module';
import type { ToolManifest } from '../../src/model/manifest';
import { writeProject } from '../support/project-files';

/** `toolwright-schema -o tools.manifest.ts`: the manifest module that carries the classes parameters name. */
const FILES: Record<string, string> = {
  'stub.ts': `
export function Tool(_options?: { description?: string }): MethodDecorator { return () => undefined; }
export function ToolParam(_options?: { name?: string }): ParameterDecorator { return () => undefined; }
export function InjectContext(_key: unknown): ParameterDecorator { return () => undefined; }
export function IsInt(): PropertyDecorator { return () => undefined; }
`,
  'node_modules/ctxpkg/package.json': JSON.stringify({ name: 'ctxpkg', version: '1.0.0', types: 'index.d.ts' }),
  'node_modules/ctxpkg/index.d.ts':
    'export declare class PkgContext { readonly region: string }\nexport declare class PkgDto { qty: number }\nexport declare class AuditContext { readonly trail: string }\n',
  // a workspace package: node_modules/@acme/dtos links here (beforeAll), and the compiler reaches its sources through the link
  'packages/acme-dtos/package.json': JSON.stringify({ name: '@acme/dtos', version: '1.0.0', types: 'src/index.ts' }),
  'packages/acme-dtos/src/index.ts': `import { IsInt } from '../../../stub';\nexport class AcmeDto { @IsInt() qty!: number }\n`,
  // a module of the project that re-exports a package's class
  'src/context/index.ts': `export { AuditContext as Audit } from 'ctxpkg';\n`,
  'src/context/user.ts': `export class UserContext { constructor(readonly id: string) {} }\n`,
  'src/context/tenant.ts': `export default class TenantContext { constructor(readonly id: string) {} }\n`,
  'src/dto.ts': `
import { IsInt } from '../stub';
class Base { @IsInt() qty!: number }
/** Decorated through its base class only. */
export class LineDto extends Base {}
/** No decorator anywhere: named all the same, so that registration refuses it as reflection does. */
export class PlainShape { qty!: number }
export { LineDto as Line };
`,
  'src/shop.ts': `
import { InjectContext, Tool, ToolParam } from '../stub';
import { UserContext } from './context/user';
import TenantContext from './context/tenant';
import { LineDto, PlainShape } from './dto';
import { PkgContext as Region, PkgDto } from 'ctxpkg';
import * as pkg from 'ctxpkg';
import { Audit } from './context';
import { AcmeDto } from '@acme/dtos';

class HiddenContext { readonly secret = 1 }
export const TOKEN = Symbol('token');

export class Shop {
  /** Order. */
  @Tool()
  order(
    @ToolParam() lines: LineDto[],
    @ToolParam() shape: PlainShape,
    @ToolParam() when: Date | undefined,
    @ToolParam() pkgLines: readonly PkgDto[],
    @ToolParam() acme: AcmeDto,
    user: UserContext,
    tenant: TenantContext,
    hidden: HiddenContext,
    @InjectContext(TOKEN) token: string,
    region: Region,
    audit: Audit,
    sameAudit: pkg.AuditContext,
  ): number {
    return audit.trail.length + sameAudit.trail.length + acme.qty + region.region.length + pkgLines.length + lines.length + shape.qty + (when ? 1 : 0) + user.id.length + tenant.id.length + hidden.secret + token.length;
  }
}
`,
  // refused by the generator (scanned on their own): what their manifest entries would get wrong
  'refused/payload.ts': `import { Gone } from './gone';\nexport interface Payload { gone: Gone[] }\n`,
  'refused/tools.ts': `
import { Tool, ToolParam } from '../stub';
import { LineDto } from '../src/dto';
import { Missing } from './missing';
import type { Payload } from './payload';

export class PartialLine {
  /** Patch. */
  @Tool()
  patch(@ToolParam() patch: Partial<LineDto>): number { return patch.qty ?? 0; }
}
export class ExplicitPartial {
  /** Patch, checked by its schema alone on purpose. */
  @Tool()
  patch(@ToolParam({ schema: { type: 'object', properties: { qty: { type: 'integer' } } } }) patch: Partial<LineDto>): number { return patch.qty ?? 0; }
}
export class FragmentPartial {
  /** Patch: a fragment that only adds a keyword does not say the type. */
  @Tool()
  patch(@ToolParam({ schema: { minProperties: 1 } }) patch: Partial<LineDto>): number { return patch.qty ?? 0; }
}
export class MissingImport {
  /** Items. */
  @Tool()
  add(@ToolParam() items: Missing[]): number { return items.length; }
}
export class ExplicitMissing {
  /** Items, typed by the decorator. */
  @Tool()
  add(@ToolParam({ type: () => [String] }) items: Missing[]): number { return items.length; }
}
export class DeepMissing {
  /** Payload. */
  @Tool()
  send(@ToolParam() payload: Payload): number { return payload.gone.length; }
}
`,
};

let dir: string;

function run(argv: string[]): { code: number; stderr: string } {
  let stderr = '';
  const code = main(argv, { cwd: dir, stderrIsTTY: false, stdout: () => undefined, stderr: (text) => (stderr += text) });
  return { code, stderr };
}

beforeAll(() => {
  dir = writeProject('toolwright-module-', FILES);
  fs.mkdirSync(path.join(dir, 'node_modules/@acme'));
  fs.symlinkSync(path.join(dir, 'packages/acme-dtos'), path.join(dir, 'node_modules/@acme/dtos'), 'dir');
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the manifest module (-o tools.manifest.ts)', () => {
  it('records the class of each context and DTO parameter with where it is exported, and imports exactly those', () => {
    expect(run(['src/**/*.ts', '-o', 'src/generated/tools.manifest.ts'])).toEqual({ code: 0, stderr: '' });
    expect(run(['src/**/*.ts', '-o', 'tools.manifest.json'])).toEqual({ code: 0, stderr: '' });
    const text = fs.readFileSync(path.join(dir, 'src/generated/tools.manifest.ts'), 'utf8');
    const json = fs.readFileSync(path.join(dir, 'tools.manifest.json'), 'utf8');
    // the module holds exactly the JSON manifest, plus the classes
    expect(manifestJsonOfModule(text)).toBe(json);

    const params = (JSON.parse(json) as ToolManifest).classes.Shop!.methods.order!.params;
    const refs = params.map(({ name, typeName, typeRef, array }) => ({ name, typeName, typeRef, array }));
    expect(refs).toEqual([
      { name: 'lines', typeName: 'LineDto', typeRef: './src/dto.ts#LineDto', array: true },
      // a class without class-validator rules: named, so that registration refuses it as under tsc (never a plain object)
      { name: 'shape', typeName: 'PlainShape', typeRef: './src/dto.ts#PlainShape', array: undefined },
      { name: 'when', typeName: 'Date', typeRef: undefined, array: undefined },
      // a readonly array of a package's class: imported from the package as the service file does
      { name: 'pkgLines', typeName: 'PkgDto', typeRef: 'ctxpkg#PkgDto', array: true },
      // a workspace package: imported by its name, as the service file does, not by the path the link leads to
      { name: 'acme', typeName: 'AcmeDto', typeRef: '@acme/dtos#AcmeDto', array: undefined },
      { name: 'user', typeName: 'UserContext', typeRef: './src/context/user.ts#UserContext', array: undefined },
      { name: 'tenant', typeName: 'TenantContext', typeRef: './src/context/tenant.ts#default', array: undefined },
      // not exported: no module can import it (registration says so, with the fix)
      { name: 'hidden', typeName: 'HiddenContext', typeRef: undefined, array: undefined },
      // a token key: the decorator carries it
      { name: 'token', typeName: undefined, typeRef: undefined, array: undefined },
      // from a package: imported from it as the service file does
      { name: 'region', typeName: 'PkgContext', typeRef: 'ctxpkg#PkgContext', array: undefined },
      // a package's class re-exported by a module of the project, and through a namespace import
      { name: 'audit', typeName: 'AuditContext', typeRef: './src/context/index.ts#Audit', array: undefined },
      { name: 'sameAudit', typeName: 'AuditContext', typeRef: 'ctxpkg#AuditContext', array: undefined },
    ]);

    expect(text).toContain("import 'reflect-metadata';\nimport type { ToolManifest } from 'toolwright';\n");
    // a CommonJS module (no "type": "module"): relative imports without an extension, as ts-node and Jest resolve them
    expect(text).toContain('import { Audit as t0 } from "../context/index";\n');
    expect(text).toContain('import { default as t1 } from "../context/tenant";\n');
    expect(text).toContain('import { UserContext as t2 } from "../context/user";\n');
    expect(text).toContain('import { LineDto as t3, PlainShape as t4 } from "../dto";\n');
    expect(text).toContain('import { AcmeDto as t5 } from "@acme/dtos";\n');
    expect(text).toContain('import { AuditContext as t6, PkgContext as t7, PkgDto as t8 } from "ctxpkg";\n');
    expect(text).toContain('"./src/context/user.ts#UserContext": () => t2');
  });

  it('compiles as TypeScript and its types section gives the classes', () => {
    const file = path.join(dir, 'src/generated/tools.manifest.ts');
    const js = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const imports: string[] = [];
    const fakeRequire = (specifier: string): unknown => {
      imports.push(specifier);
      const classes = [class UserContext {}, class LineDto {}, class PlainShape {}, class PkgContext {}, class PkgDto {}, class AuditContext {}, class AcmeDto {}];
      return { ...Object.fromEntries(classes.map((c) => [c.name, c])), default: class TenantContext {}, Audit: classes[5] };
    };
    const exports: { manifest?: ToolManifest } = {};
    new Function('require', 'exports', js)(fakeRequire, exports);
    expect(imports).toEqual(['reflect-metadata', '../context/index', '../context/tenant', '../context/user', '../dto', '@acme/dtos', 'ctxpkg']);
    const types = exports.manifest!.types!;
    expect(Object.keys(types)).toEqual([
      './src/context/index.ts#Audit',
      './src/context/tenant.ts#default',
      './src/context/user.ts#UserContext',
      './src/dto.ts#LineDto',
      './src/dto.ts#PlainShape',
      '@acme/dtos#AcmeDto',
      'ctxpkg#AuditContext',
      'ctxpkg#PkgContext',
      'ctxpkg#PkgDto',
    ]);
    expect(types['./src/context/user.ts#UserContext']!().name).toBe('UserContext');
  });

  it('--check compares the module too, and names the methods that changed', () => {
    const out = 'src/generated/tools.manifest.ts';
    expect(run(['src/**/*.ts', '-o', out, '--check'])).toEqual({ code: 0, stderr: '' });
    const file = path.join(dir, out);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"Order."', '"Old."'));
    const stale = run(['src/**/*.ts', '-o', out, '--check']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('~ Shop.order (changed)');
    fs.writeFileSync(file, 'export const somethingElse = 1;\n');
    expect(run(['src/**/*.ts', '-o', out, '--check']).stderr).toContain('the file on disk is not a manifest module');
  });
});

describe('parameter types the manifest cannot describe truthfully', () => {
  it('refuses a class inside a generic type (unless @ToolParam says the type) and names that do not resolve, at any depth', () => {
    const { code, stderr } = run(['refused/*.ts', '-o', 'refused.manifest.json']);
    expect(code).toBe(1);
    const problems = stderr.split('\n').filter((line) => line.startsWith('toolwright-schema: refused/'));
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^toolwright-schema: refused\/tools\.ts:\d+:\d+: PartialLine\.patch: the type of parameter patch \(Partial<LineDto>\) holds the class LineDto/);
    expect(problems[1]).toMatch(/FragmentPartial\.patch: the type of parameter patch \(Partial<LineDto>\) holds the class LineDto/);
    expect(problems[2]).toContain("MissingImport.add: the type of parameter items (Missing[]) does not resolve: refused/tools.ts imports './missing'");
    expect(problems[2]).toContain("--project tsconfig.json; \"moduleResolution\": \"bundler\" for tsx, esbuild and Vite), or write the import as that resolution needs it ('./missing.js').");
    // the unresolved name is in another file: that file's import is named
    expect(problems[3]).toContain("DeepMissing.send: the type of parameter payload (Payload) does not resolve: refused/payload.ts imports './gone'");
    for (const problem of problems) expect(problem.length).toBeLessThan(1000);
    // the explicit ones are described: what the decorator says wins at run time
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'refused.manifest.json'), 'utf8')) as ToolManifest;
    expect(Object.keys(manifest.classes).sort()).toEqual(['ExplicitMissing', 'ExplicitPartial']);
  });
});

