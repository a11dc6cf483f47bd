import type { ManifestMethod, ToolManifest } from '../model/manifest';
import { ToolkitError } from '../errors';
import {
  mergedRecords,
  ownToolNames,
  type Constructor,
  type ParamRecords,
  type ToolMethodRecord,
  type ToolServiceOptions,
} from '../metadata/records';
import type { ParamDescriptor, ToolDescriptor } from '../metadata/tool-descriptor';
import { assertToolName, snakeCase } from '../metadata/tool-name';
import { deepFreeze } from './lowering/schema-utils';
import { NO_METADATA, typeFixes } from './model-param';
import { buildParamDescriptor } from './param-descriptor';

/** Re-exported for the toolkit, which freezes the schemas it assembles from descriptors. */
export { deepFreeze };
export { hasToolMethods } from '../metadata/records';
export type { InjectedParamDescriptor, ModelParamDescriptor, ParamDescriptor, ToolDescriptor } from '../metadata/tool-descriptor';
export { assertToolName, snakeCase } from '../metadata/tool-name';
export { schemaProblems } from './schema-problems';

function assertReflection(): void {
  if (typeof Reflect !== 'object' || typeof (Reflect as { getMetadata?: unknown }).getMetadata !== 'function') {
    throw new ToolkitError(
      'REFLECT_METADATA_MISSING',
      "Reflect.getMetadata is not available: add `import 'reflect-metadata'` once at the top of your " +
        'entry point (before any decorated class is imported).',
    );
  }
}

/**
 * Checks the decorator records of a class (and the manifest entry, when given) and returns one
 * frozen descriptor per `@Tool` method (none for a class with only `@Resource` and `@Prompt` methods). Explicit decorator options win over the manifest, which
 * wins over reflection; this is the only place they are merged.
 *
 * @throws ToolkitError `REFLECT_METADATA_MISSING`, `DECORATOR_METADATA_MISSING`, `MISSING_NAME`,
 *   `MISSING_DESCRIPTION`, `INVALID_NAME`, `UNRESOLVABLE_PARAMETER`, `INVALID_DEFINITION`,
 *   `MANIFEST_MISMATCH`
 */
export function buildToolDescriptors(ctor: Constructor, manifest?: ToolManifest): ToolDescriptor[] {
  assertReflection();
  const statics = ownToolNames(ctor);
  if (statics.length) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${ctor.name}.${statics[0]}: @Tool is on a static method (or @Resource, @Prompt). Tools, resources and prompts are instance ` +
        'methods (the instance comes from the container, with its dependencies): drop `static`, or register an AgentTool object.',
    );
  }
  const records = mergedRecords(ctor.prototype as object);
  if (records.methods.size + records.resources.size + records.prompts.size === 0) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${ctor.name} has no @Tool methods: decorate at least one method with @Tool() (or @Resource, @Prompt), or register an AgentTool object.`,
    );
  }
  const manifestClass = manifest?.classes[ctor.name];
  try {
    return [...records.methods.values()].map((method) =>
      buildOne(ctor, records.service, method, records.params(method.methodName), manifestClass?.methods[method.methodName], manifest?.types),
    );
  } catch (error) {
    if (manifest === undefined || manifestClass !== undefined || !ToolkitError.is(error)) throw error;
    throw new ToolkitError(
      error.code,
      `${error.message} (The manifest has no class named ${ctor.name}: is it stale, or did a bundler rename the class? ` +
        'Classes are found by name: build with esbuild keepNames: true, and keep class names when minifying.)',
      { cause: error },
    );
  }
}

/** @internal A decorated method's parameters as far as they can be counted, checked by {@link methodParams}. */
export interface MethodParams {
  readonly owner: string;
  /** Describes each parameter: its kind and, for model parameters, its schema. */
  describe(): ParamDescriptor[];
}

/**
 * @internal Counts the parameters of a decorated method (`decorator` names the method's decorator
 * in messages) and checks that each can be told apart; {@link MethodParams.describe} then
 * describes them. Shared by tools, resources and prompts.
 *
 * @throws ToolkitError `INVALID_DEFINITION`, `MANIFEST_MISMATCH`, `DECORATOR_METADATA_MISSING`; from
 *   `describe()`, the codes of `buildParamDescriptor`.
 */
export function methodParams(
  ctor: Constructor,
  methodName: string,
  decorator: string,
  records: ParamRecords,
  manifest: ManifestMethod | undefined,
  types: ToolManifest['types'],
): MethodParams {
  const owner = `${ctor.name}.${methodName}`;
  const fn = (ctor.prototype as Record<string, unknown>)[methodName];
  if (typeof fn !== 'function') {
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: ${decorator} is only allowed on methods.`);
  }
  const paramTypes = Reflect.getMetadata('design:paramtypes', ctor.prototype as object, methodName) as unknown[] | undefined;
  // Without metadata, `fn.length` stops at the first default value: the manifest counts the rest
  // (`run(@ToolParam() n = 1, user?: UserContext)` has two parameters, and `user` is injected).
  const count = Math.max(fn.length, paramTypes?.length ?? manifest?.params.length ?? 0, records.extent);
  if (manifest && manifest.params.length !== count) {
    throw new ToolkitError(
      'MANIFEST_MISMATCH',
      `${owner}: the manifest lists ${manifest.params.length} parameter(s) but the method has ${count}; ` +
        'the manifest is stale: run toolwright-schema again (npm run build).',
    );
  }
  // Without metadata, parameters are still described when the decorators say everything (a
  // `type` thunk, `@InjectContext`) — or the manifest does.
  const undecorated = Array.from({ length: count }, (_, i) => i).filter((i) => !records.has(i));
  if (paramTypes === undefined && undecorated.length > 0 && !manifest) throw metadataMissing(owner, count, records, types);
  const describe = (): ParamDescriptor[] => {
    const params: ParamDescriptor[] = [];
    const seen = new Set<string>();
    for (let index = 0; index < count; index++) {
      const param = buildParamDescriptor(owner, index, {
        options: records.options(index),
        context: records.context(index),
        manifest: manifest?.params[index],
        types,
        designType: paramTypes?.[index],
      });
      if (param.kind === 'model') {
        if (seen.has(param.name)) {
          throw new ToolkitError('INVALID_DEFINITION', `${owner}: two parameters are named '${param.name}'.`);
        }
        seen.add(param.name);
      }
      params.push(Object.freeze(param));
    }
    return params;
  };
  return { owner, describe };
}

/**
 * The error for a method whose parameters cannot be told apart without decorator metadata: it
 * names each such parameter with its own fix, then the two fixes for all of them at once.
 */
function metadataMissing(owner: string, count: number, records: ParamRecords, types: ToolManifest['types']): ToolkitError {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    if (!records.has(index)) {
      lines.push(`parameter #${index} has no @ToolParam and no @InjectContext: mark a context object @InjectContext(TheClass), or a value the model sends @ToolParam({ name: '…', type: () => … })`);
      continue;
    }
    try {
      buildParamDescriptor(owner, index, { options: records.options(index), context: records.context(index), manifest: undefined, types, designType: undefined });
    } catch (error) {
      if (ToolkitError.is(error, 'MISSING_NAME')) lines.push(`parameter #${index} has a @ToolParam without a name (reflection cannot see names): ${typeFixes('…')}`);
      else if (ToolkitError.is(error, 'DECORATOR_METADATA_MISSING')) lines.push(`parameter '${records.options(index)?.name}' (#${index}) has a @ToolParam that names no type: ${typeFixes(records.options(index)?.name ?? '…')}`);
      else throw error;
    }
  }
  return new ToolkitError(
    'DECORATOR_METADATA_MISSING',
    `${owner}: no design:paramtypes metadata (${NO_METADATA}), so ${lines.length === 1 ? 'this parameter' : 'these parameters'} cannot be told apart:\n` +
      lines.map((line) => `  - ${line}`).join('\n') +
      '\nOr fix every parameter at once: enable "experimentalDecorators" and "emitDecoratorMetadata" in tsconfig.json and compile with ' +
      "tsc, swc, Vite 8 (vitest 4.1+) or Bun, with `import 'reflect-metadata'` at the top of your entry point; or generate the manifest " +
      'module with toolwright-schema (-o tools.manifest.ts) and pass it to new Toolkit({ manifest }).',
  );
}

function buildOne(
  ctor: Constructor,
  service: ToolServiceOptions,
  method: ToolMethodRecord,
  records: ParamRecords,
  manifest: ManifestMethod | undefined,
  types: ToolManifest['types'],
): ToolDescriptor {
  const { owner, describe } = methodParams(ctor, method.methodName, '@Tool', records, manifest, types);
  const name = method.options.name ?? snakeCase(method.methodName);
  assertToolName(name, owner);
  const description = method.options.description ?? manifest?.description;
  if (!description) {
    throw new ToolkitError(
      'MISSING_DESCRIPTION',
      `${owner}: tool '${name}' has no description. Add @Tool({ description: '…' }), or write a JSDoc comment on ` +
        'the method and pass the toolwright-schema manifest to new Toolkit({ manifest }).',
      { tool: name },
    );
  }

  const params = describe();
  const { name: _n, description: _d, ...behaviour } = method.options;
  if (behaviour.group === undefined && service.group !== undefined) behaviour.group = service.group;
  const descriptor: ToolDescriptor = {
    className: ctor.name,
    methodName: method.methodName,
    name,
    description,
    behaviour: Object.freeze(behaviour),
    params: Object.freeze(params),
    ...(manifest?.returns ? { returns: manifest.returns } : {}),
  };
  return Object.freeze(descriptor);
}
