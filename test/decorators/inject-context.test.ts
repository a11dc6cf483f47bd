import 'reflect-metadata';
import { IsInt, Min } from 'class-validator';
import { InjectContext, Tool, ToolExecutionContext, ToolParam, ToolService, type ToolManifest, type ManifestParam } from '../../src';
import { thrown } from '../support/errors';
import { call, expectAllSchemasMetaValid, newToolkit } from '../support/toolkit';

afterAll(() => expectAllSchemasMetaValid());

class UserContext {
  constructor(readonly id: string) {}
}
const TENANT = Symbol('tenant');

class QtyDto {
  @IsInt()
  @Min(1)
  qty!: number;
}

describe('@InjectContext', () => {
  @ToolService()
  class Orders {
    @Tool({ description: 'Who am I' })
    whoAmI(@InjectContext(UserContext) user: UserContext, @InjectContext(TENANT) tenant: string, @InjectContext('region') region: string) {
      return `${user.id}@${tenant}/${region}`;
    }
  }

  const context = ToolExecutionContext.builder().register(new UserContext('u-1')).register(TENANT, 'acme').register('region', 'eu').build();

  it('injects a context object by class, and non-class values by symbol or string token; none is in the schema', async () => {
    const toolkit = newToolkit({ context });
    toolkit.registerTool(Orders);
    expect(toolkit.getToolSchemas()[0]?.parameters).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    const result = await call(toolkit, 'who_am_i', {});
    expect(result.forLLM).toBe('u-1@acme/eu');
  });

  it('the model cannot set an injected value: an argument named like it is refused, and the context still decides', async () => {
    const toolkit = newToolkit({ context });
    toolkit.registerTool(Orders);
    const forged = await call(toolkit, 'who_am_i', { tenant: 'evil', user: { id: 'root' } });
    expect(forged.isError).toBe(true);
    expect(forged.forLLM).toContain("'tenant'");
    expect(forged.forLLM).not.toContain('acme');
  });

  it('a missing token value is CONTEXT_MISSING naming the token and how to register a value under it', async () => {
    const toolkit = newToolkit({ context: ToolExecutionContext.of(new UserContext('u-1')) });
    toolkit.registerTool(Orders);
    const result = await call(toolkit, 'who_am_i', {});
    expect(result.isError).toBe(true);
    expect(result.forLLM).toContain('Symbol(tenant)');
    expect(result.forLLM).toContain('register(Symbol(tenant), value)');
  });

  it('@ToolParam and @InjectContext on one parameter is a definition error', () => {
    @ToolService()
    class Both {
      @Tool({ description: 'd' })
      run(@ToolParam({ name: 'user' }) @InjectContext(UserContext) user: UserContext) {
        return user.id;
      }
    }
    const error = thrown(() => newToolkit().registerTool(Both), 'INVALID_DEFINITION');
    expect(error.message).toContain("Both.run parameter 'user' (#0) has both @ToolParam and @InjectContext");
  });

  it('an undefined key (a class used before its declaration) and a constructor parameter are refused at once', () => {
    const missing: unknown = undefined;
    expect(thrown(() => InjectContext(missing as never), 'INVALID_DEFINITION').message).toContain('is the class imported before it is declared?');
    expect(thrown(() => InjectContext(''), 'INVALID_DEFINITION').message).toContain('non-empty string');
    const decorator = InjectContext(UserContext);
    expect(thrown(() => decorator(class Service {}, undefined, 0), 'INVALID_DEFINITION').message).toContain("Inversify's @inject");
  });
});

/**
 * Decorators applied by hand, as esbuild/tsx/vitest apply them: no `design:paramtypes`. The
 * manifest (as `toolwright-schema -o tools.manifest.ts` writes it) names the classes.
 */
describe('without decorator metadata, the manifest module names the classes', () => {
  class Shop {
    place(order: QtyDto, user: UserContext): string {
      return `${order instanceof QtyDto ? 'instance' : 'plain'} ${order.qty} for ${user.id}`;
    }
  }
  Tool()(Shop.prototype, 'place', Object.getOwnPropertyDescriptor(Shop.prototype, 'place')!);
  ToolParam()(Shop.prototype, 'place', 0);

  const params: ManifestParam[] = [
    { name: 'order', index: 0, optional: false, kind: 'model', typeName: 'QtyDto', typeRef: './dto.ts#QtyDto', schema: { type: 'object' } },
    { name: 'user', index: 1, optional: false, kind: 'injected', injected: 'context', typeName: 'UserContext', typeRef: './user.ts#UserContext' },
  ];
  const manifest = (types?: ToolManifest['types'], className = 'Shop', list = params): ToolManifest => ({
    version: 1,
    generator: 'toolwright-schema',
    classes: { [className]: { file: 'shop.ts', methods: { place: { description: 'Place', params: list } } } },
    ...(types ? { types } : {}),
  });
  const context = ToolExecutionContext.of(new UserContext('u-9'));

  it('with the classes: class-validator runs, the DTO arrives as an instance, the context is injected', async () => {
    expect(Reflect.getMetadata('design:paramtypes', Shop.prototype, 'place')).toBeUndefined();
    const toolkit = newToolkit({ context, manifest: manifest({ './dto.ts#QtyDto': () => QtyDto, './user.ts#UserContext': () => UserContext }) });
    toolkit.registerTool(Shop);
    expect((await call(toolkit, 'place', { order: { qty: 2 } })).forLLM).toBe('instance 2 for u-9');
    const fractional = await call(toolkit, 'place', { order: { qty: 0.5 } });
    expect(fractional.isError).toBe(true);
    expect(fractional.forLLM).toContain("'order.qty'");
  });

  it.each<[string, ToolManifest, string]>([
    ['a JSON manifest', manifest(), 'a JSON manifest cannot carry classes'],
    ['a stale module', manifest({ './user.ts#UserContext': () => UserContext }), 'the manifest module has no class for ./dto.ts#QtyDto'],
    [
      'a class no module exports',
      manifest({}, 'Shop', [{ ...params[0]!, typeRef: undefined } as ManifestParam, params[1]!]),
      'no module exports QtyDto',
    ],
    [
      'an entry that throws (a circular import)',
      manifest({
        './dto.ts#QtyDto': () => {
          throw new ReferenceError("Cannot access 'QtyDto' before initialization");
        },
      }),
      "threw (Cannot access 'QtyDto' before initialization)",
    ],
    ['an entry that is no class', manifest({ './dto.ts#QtyDto': () => 42 as never }), 'gave number, not a class'],
    [
      'a reference named like an Object member (not an entry of the module)',
      manifest({ './user.ts#UserContext': () => UserContext }, 'Shop', [{ ...params[0]!, typeRef: 'constructor' }, params[1]!]),
      'the manifest module has no class for constructor',
    ],
  ])('%s: UNRESOLVABLE_PARAMETER naming the class, the reason and the fixes — never a weaker plain object', (_, given, reason) => {
    const error = thrown(() => newToolkit({ context, manifest: given }).registerTool(Shop), 'UNRESOLVABLE_PARAMETER');
    expect(error.message).toContain("Shop.place parameter 'order' (#0): the manifest says it is DTO class QtyDto");
    expect(error.message).toContain(reason);
    expect(error.message).toContain('@ToolParam({ type: () => QtyDto })');
  });

  it('the model cannot forge the context or smuggle prototype keys into the DTO the manifest module names', async () => {
    const toolkit = newToolkit({ context, manifest: manifest({ './dto.ts#QtyDto': () => QtyDto, './user.ts#UserContext': () => UserContext }) });
    toolkit.registerTool(Shop);
    const forged = await call(toolkit, 'place', { order: { qty: 2 }, user: { id: 'root' } });
    expect(forged.isError).toBe(true);
    expect(forged.forLLM).toContain("'user': is not a parameter of this tool");
    for (const order of ['{"qty": 2, "__proto__": {"polluted": true}}', '{"qty": 2, "constructor": {"prototype": {"polluted": true}}}']) {
      const smuggled = await call(toolkit, 'place', { order: JSON.parse(order) as unknown });
      expect(smuggled.isError).toBe(true);
      expect(smuggled.forLLM).toMatch(/'order\.(__proto__|constructor)'/);
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((QtyDto.prototype as { polluted?: unknown }).polluted).toBeUndefined();
    expect((await call(toolkit, 'place', { order: { qty: 3 } })).forLLM).toBe('instance 3 for u-9');
  });

  it('an unresolvable context class names @InjectContext as the fix', () => {
    const onlyDto = manifest({ './dto.ts#QtyDto': () => QtyDto, './user.ts#UserContext': () => undefined as never });
    const error = thrown(() => newToolkit({ context, manifest: onlyDto }).registerTool(Shop), 'UNRESOLVABLE_PARAMETER');
    expect(error.message).toContain("parameter 'user' (#1): the manifest says it is context class UserContext");
    expect(error.message).toContain('@InjectContext(UserContext)');
  });

  it('a context after a parameter with a default value is still injected (Function.length stops at the default), and a stale manifest is refused', async () => {
    class Counter {
      place(by = 1, user?: UserContext): string {
        return `${by} for ${user?.id ?? 'nobody'}`;
      }
    }
    Tool()(Counter.prototype, 'place', Object.getOwnPropertyDescriptor(Counter.prototype, 'place')!);
    ToolParam()(Counter.prototype, 'place', 0);
    expect(Counter.prototype.place.length).toBe(0);
    const counterParams: ManifestParam[] = [
      { name: 'by', index: 0, optional: true, kind: 'model', schema: { type: 'number', default: 1 } },
      { ...params[1]!, index: 1 },
    ];
    const toolkit = newToolkit({ context, manifest: manifest({ './user.ts#UserContext': () => UserContext }, 'Counter', counterParams) });
    toolkit.registerTool(Counter);
    expect((await call(toolkit, 'place', {})).forLLM).toBe('1 for u-9');

    class Grown {
      place(order: QtyDto, user: UserContext, extra: string): string {
        return `${order.qty} ${user.id} ${extra}`;
      }
    }
    Tool()(Grown.prototype, 'place', Object.getOwnPropertyDescriptor(Grown.prototype, 'place')!);
    const stale = manifest({ './dto.ts#QtyDto': () => QtyDto, './user.ts#UserContext': () => UserContext }, 'Grown');
    expect(thrown(() => newToolkit({ context, manifest: stale }).registerTool(Grown), 'MANIFEST_MISMATCH').message).toContain(
      'Grown.place: the manifest lists 2 parameter(s) but the method has 3',
    );
  });

  it('a class the manifest does not know (renamed by a bundler) gets a hint about keeping names', () => {
    const error = thrown(() => newToolkit({ context, manifest: manifest(undefined, 'ShopService') }).registerTool(Shop), 'DECORATOR_METADATA_MISSING');
    expect(error.message).toContain('The manifest has no class named Shop');
    expect(error.message).toContain('keepNames');
  });
});

/** Under tsc too, reflection names no item class for `lines: LineDto[]`: the manifest must, and the message says why. */
describe('with decorator metadata that names no class', () => {
  @ToolService()
  class Lines {
    @Tool({ description: 'Lines' })
    add(@ToolParam() lines: QtyDto[]): number {
      return lines.length;
    }
  }

  it('a JSON manifest naming an array of DTOs says reflection sees only Array, and the fixes', () => {
    expect(Reflect.getMetadata('design:paramtypes', Lines.prototype, 'add')).toEqual([Array]);
    const json: ToolManifest = {
      version: 1,
      generator: 'toolwright-schema',
      classes: {
        Lines: {
          file: 'lines.ts',
          methods: { add: { params: [{ name: 'lines', index: 0, optional: false, kind: 'model', typeName: 'QtyDto', typeRef: './dto.ts#QtyDto', array: true, schema: { type: 'array', items: { type: 'object' } } }] } },
        },
      },
    };
    const error = thrown(() => newToolkit({ manifest: json }).registerTool(Lines), 'UNRESOLVABLE_PARAMETER');
    expect(error.message).toContain("Lines.add parameter 'lines' (#0): the manifest says it is an array of DTO class QtyDto, and reflection sees only Array");
    expect(error.message).not.toContain('no decorator metadata');
    expect(error.message).toContain('@ToolParam({ type: () => [QtyDto] })');
  });
});
