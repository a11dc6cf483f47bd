import { Ajv } from 'ajv';
import type { ToolBehaviour } from '../common/agent-tool';
import type { ContextType } from '../common/execution-context';
import type { JsonSchema, JsonSchemaType } from '../common/json-schema';
import type { ManifestMethod, ManifestParam, ToolManifest } from '../common/manifest';
import { ToolEmitter } from '../common/tool-emitter';
import { ToolkitError } from '../errors';
import {
  ownToolNames,
  recordChain,
  type Constructor,
  type ToolMethodRecord,
  type ToolParamOptions,
  type ToolParamRecord,
  type ToolServiceOptions,
} from '../metadata/records';
import { deepFreeze } from './lowering/schema-utils';
import { builtinSchema, dtoSchema, enumSchema, hasValidationMetadata, isUserClass } from './type-schema';

/** Re-exported for the toolkit, which freezes the schemas it assembles from descriptors. */
export { deepFreeze };

/** A parameter the model fills. */
export interface ModelParamDescriptor {
  readonly kind: 'model';
  readonly index: number;
  readonly name: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
  /** Set when the argument must become a class instance (class-transformer + class-validator). */
  readonly dto?: { readonly type: Constructor; readonly array: boolean };
  /** Set when the argument (or each item, for arrays) must become a `Date`. */
  readonly date?: boolean;
  /** Set for `@ToolParam({ preset: true })`: never visible; registration must bind a preset. */
  readonly preset?: boolean;
}

/** A parameter the toolkit fills by type. */
export interface InjectedParamDescriptor {
  readonly kind: 'emitter' | 'signal' | 'context';
  readonly index: number;
  /** For context parameters: the class to look up along the context chain. */
  readonly type?: ContextType;
  readonly typeName?: string;
}

/** Any parameter of a decorated tool method. */
export type ParamDescriptor = ModelParamDescriptor | InjectedParamDescriptor;

/** The checked, frozen description of one decorated tool method. */
export interface ToolDescriptor {
  readonly className: string;
  readonly methodName: string;
  readonly name: string;
  readonly description: string;
  readonly behaviour: ToolBehaviour;
  readonly params: readonly ParamDescriptor[];
  readonly returns?: JsonSchema;
}

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** `getWeather` → `get_weather`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .toLowerCase();
}

/** Throws unless `name` is accepted by every provider. */
export function assertToolName(name: string, owner: string): void {
  if (!NAME_PATTERN.test(name)) {
    throw new ToolkitError(
      'INVALID_NAME',
      `${owner}: tool name '${name}' is not valid for every provider; ` +
        `use 1-64 letters, digits, '_' or '-' (pattern ^[a-zA-Z0-9_-]{1,64}$).`,
      { tool: name },
    );
  }
}

/** True when `prototype` (or an ancestor) has `@Tool` methods. */
export function hasToolMethods(prototype: object): boolean {
  return recordChain(prototype).some((records) => records.tools.size > 0);
}

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
 * frozen descriptor per `@Tool` method. Explicit decorator options win over the manifest, which
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
      `${ctor.name}.${statics[0]}: @Tool is on a static method. Tools are instance methods (the instance comes ` +
        'from the container, with its dependencies): drop `static`, or register an AgentTool object.',
    );
  }
  const prototype = ctor.prototype as object;
  const chain = recordChain(prototype);
  const service: ToolServiceOptions = chain.find((r) => r.service)?.service ?? {};
  // Merged from the root class down, so a subclass's records win.
  const rootFirst = [...chain].reverse();
  const methods = new Map<string, ToolMethodRecord>();
  for (const records of rootFirst) for (const [k, v] of records.tools) methods.set(k, v);
  if (methods.size === 0) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${ctor.name} has no @Tool methods: decorate at least one method with @Tool(), or register an AgentTool object.`,
    );
  }
  const manifestClass = manifest?.classes[ctor.name];
  return [...methods.values()].map((method) => {
    const params = new Map<number, ToolParamRecord>();
    for (const records of rootFirst) {
      for (const [index, record] of records.params.get(method.methodName) ?? []) params.set(index, record);
    }
    return buildOne(ctor, service, method, params, manifestClass?.methods[method.methodName]);
  });
}

function buildOne(
  ctor: Constructor,
  service: ToolServiceOptions,
  method: ToolMethodRecord,
  records: Map<number, ToolParamRecord>,
  manifest: ManifestMethod | undefined,
): ToolDescriptor {
  const owner = `${ctor.name}.${method.methodName}`;
  const fn = (ctor.prototype as Record<string, unknown>)[method.methodName];
  if (typeof fn !== 'function') {
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: @Tool is only allowed on methods.`);
  }
  const paramTypes = Reflect.getMetadata('design:paramtypes', ctor.prototype as object, method.methodName) as
    | unknown[]
    | undefined;
  const count = Math.max(fn.length, paramTypes?.length ?? 0, ...[...records.keys()].map((i) => i + 1));
  if (manifest && manifest.params.length !== count && paramTypes !== undefined) {
    throw new ToolkitError(
      'MANIFEST_MISMATCH',
      `${owner}: the manifest lists ${manifest.params.length} parameter(s) but the method has ${count}; ` +
        'the manifest is stale: run toolwright-schema again (npm run build).',
    );
  }
  if (paramTypes === undefined && count > 0 && !manifest) {
    throw new ToolkitError(
      'DECORATOR_METADATA_MISSING',
      `${owner}: no design:paramtypes metadata. Enable "experimentalDecorators" and "emitDecoratorMetadata" in ` +
        "tsconfig.json and compile with tsc (esbuild, tsx and vitest emit no metadata), keep `import 'reflect-metadata'` " +
        'at the top of your entry point, or generate a manifest with toolwright-schema and pass it to new Toolkit({ manifest }).',
    );
  }

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

  const params: ParamDescriptor[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < count; index++) {
    const param = buildParam(owner, index, records.get(index), manifest?.params[index], paramTypes?.[index]);
    if (param.kind === 'model') {
      if (seen.has(param.name)) {
        throw new ToolkitError('INVALID_DEFINITION', `${owner}: two parameters are named '${param.name}'.`);
      }
      seen.add(param.name);
    }
    params.push(Object.freeze(param));
  }

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

function describeParam(index: number, record?: ToolParamRecord, manifest?: ManifestParam): string {
  const name = record?.options.name ?? manifest?.name;
  return name ? `parameter '${name}' (#${index})` : `parameter #${index}`;
}

function buildParam(
  owner: string,
  index: number,
  record: ToolParamRecord | undefined,
  manifest: ManifestParam | undefined,
  designType: unknown,
): ParamDescriptor {
  const label = describeParam(index, record, manifest);
  if (!record) {
    if (designType === ToolEmitter || manifest?.injected === 'emitter') return { kind: 'emitter', index };
    if (designType === AbortSignal || manifest?.injected === 'signal') return { kind: 'signal', index };
    if (manifest?.kind !== 'model' && isUserClass(designType)) {
      if (hasValidationMetadata(designType)) {
        throw new ToolkitError(
          'UNRESOLVABLE_PARAMETER',
          `${owner} ${label}: ${designType.name} carries class-validator decorators, so it looks like a DTO the model ` +
            `should fill, but it has no @ToolParam and would be injected as a context object. Add @ToolParam({ name: '…' }).`,
        );
      }
      return { kind: 'context', index, type: designType, typeName: designType.name };
    }
    if (manifest?.injected === 'context') {
      throw new ToolkitError(
        'UNRESOLVABLE_PARAMETER',
        `${owner} ${label}: the manifest says it is a context object of class ${manifest.typeName ?? '?'}, but ` +
          'reflection sees no class. Import the class as a value (not `import type`) and compile with tsc so ' +
          'decorator metadata names it.',
      );
    }
    if (manifest?.kind !== 'model') {
      throw new ToolkitError(
        'UNRESOLVABLE_PARAMETER',
        `${owner} ${label} has no @ToolParam and is not an injectable type. Add @ToolParam({ name: '…' }) so the ` +
          'model fills it, or declare it with a context class type (or ToolEmitter / AbortSignal) to inject it.',
      );
    }
  }
  return modelParam(owner, index, label, record?.options ?? {}, manifest, designType);
}

function modelParam(
  owner: string,
  index: number,
  label: string,
  options: ToolParamOptions,
  manifest: ManifestParam | undefined,
  designType: unknown,
): ModelParamDescriptor {
  const name = options.name ?? manifest?.name;
  if (!name) {
    throw new ToolkitError(
      'MISSING_NAME',
      `${owner} parameter #${index} has no name. Reflection cannot see parameter names: write ` +
        "@ToolParam({ name: '…' }), or generate a manifest with toolwright-schema and pass it to new Toolkit({ manifest }).",
    );
  }
  const required = options.required ?? (manifest ? !manifest.optional : true);
  // A declared preset is never shown to a model: its schema does not matter.
  if (options.preset === true) return { kind: 'model', index, name, required, schema: deepFreeze({}), preset: true };

  let hint: unknown = options.type ? options.type() : undefined;
  let array = false;
  if (isArrayHint(hint)) {
    array = true;
    hint = hint[0];
  } else if (hint === undefined && designType === Array) {
    array = true;
  }
  const elementType = hint ?? (array ? undefined : designType);

  let inferred: JsonSchema | undefined;
  let dto: ModelParamDescriptor['dto'];
  if (options.enum) inferred = enumSchema(options.enum);
  else if (elementType !== undefined && typeof elementType === 'object') inferred = enumSchema(elementType as never);
  else if (isUserClass(elementType)) {
    if (!hasValidationMetadata(elementType)) {
      throw new ToolkitError(
        'INVALID_DEFINITION',
        `${owner} ${label}: class ${elementType.name} has no class-validator decorators, so its schema is unknown. ` +
          'Decorate its properties (@IsString(), @IsOptional()…), or give @ToolParam a schema.',
      );
    }
    inferred = dtoSchema(elementType);
    dto = { type: elementType, array };
  } else inferred = builtinSchema(elementType, options.integer);
  if (inferred && array) inferred = { type: 'array', items: inferred };
  if (array && !inferred) inferred = { type: 'array' };

  // Explicit decorator options (enum, type thunks, DTO classes with their class-validator
  // constraints) win over the manifest, which wins over what reflection saw.
  const explicit = options.enum !== undefined || options.type !== undefined || dto !== undefined;
  const base = explicit ? inferred : (manifest?.schema ?? inferred);
  const schema: JsonSchema = { ...(base ?? {}), ...(options.schema ?? {}) };
  if (options.integer) {
    if (schema.type === 'array') schema.items = { ...(schema.items ?? {}), type: 'integer' };
    else schema.type = 'integer';
  }
  // `days: number | undefined` reflects as Object under swc/esbuild-style transpilers (tsc says
  // Number): a fragment such as `{ minimum: 1 }` still tells which type is meant.
  if (schema.type === undefined) {
    const implied = typeFromKeywords(schema);
    if (implied) schema.type = implied;
  }
  const description = options.description ?? manifest?.description ?? options.schema?.description;
  if (description) schema.description = description;
  else delete schema.description;

  if (schema.type === undefined && schema.enum === undefined && schema.anyOf === undefined && schema.oneOf === undefined && schema.$ref === undefined && schema.const === undefined) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${owner} ${label}: its type cannot be seen by reflection (an interface, a union or any). Add ` +
        "@ToolParam({ schema: { type: '…' } }) or a type thunk (type: () => MyDto), or use the toolwright-schema manifest. " +
        '(A parameter declared `x: T | undefined` reflects as Object under swc/esbuild; `x?: T` keeps its type.)',
    );
  }
  // Inferred schemas are valid by construction; fragments written by hand or read from a manifest file are checked.
  const problems = options.schema !== undefined || base === manifest?.schema ? schemaProblems(schema) : undefined;
  if (problems !== undefined) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${owner} ${label}: its schema is not a valid JSON Schema (${problems}). Fix the @ToolParam schema fragment` +
        `${manifest?.schema ? ' or regenerate the manifest with toolwright-schema' : ''}.`,
    );
  }
  if (schema.type === 'array' && schema.items === undefined) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${owner} ${label} is an array but reflection cannot see its item type. Add type: () => [String] ` +
        "(or a DTO class), or schema: { items: { type: '…' } }, or use the toolwright-schema manifest.",
    );
  }
  const date = elementType === Date || (manifest?.schema?.format === 'date-time' && designType === Date);
  return {
    kind: 'model',
    index,
    name,
    required,
    schema: deepFreeze(schema),
    ...(dto ? { dto } : {}),
    ...(date ? { date: true } : {}),
  };
}

/** `() => [AddressDto]`, `() => [String]`, `() => [Unit]` (an enum object): a one-element array of a type. */
function isArrayHint(hint: unknown): hint is [unknown] {
  if (!Array.isArray(hint) || hint.length !== 1) return false;
  const [element] = hint as unknown[];
  return typeof element === 'function' || (typeof element === 'object' && element !== null && !Array.isArray(element));
}

const KEYWORD_TYPES: readonly (readonly [JsonSchemaType, readonly string[]])[] = [
  ['number', ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']],
  ['string', ['minLength', 'maxLength', 'pattern', 'format']],
  ['array', ['items', 'minItems', 'maxItems', 'uniqueItems']],
  ['object', ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties']],
];

/** The one JSON type that a fragment's keywords imply (`minimum` → number…), if exactly one. */
function typeFromKeywords(schema: JsonSchema): JsonSchemaType | undefined {
  if (schema.enum !== undefined || schema.const !== undefined || schema.anyOf || schema.oneOf || schema.allOf || schema.$ref) return undefined;
  const implied = KEYWORD_TYPES.filter(([, keywords]) => keywords.some((k) => schema[k] !== undefined)).map(([type]) => type);
  return implied.length === 1 ? implied[0] : undefined;
}

let metaValidator: Ajv | undefined;
const checkedSchemas = new Map<string, string | undefined>();

/**
 * Why `schema` is not a valid JSON Schema (draft-07 meta-schema), or `undefined` when it is.
 * One shared validator: its meta-schema is compiled once per process, not once per toolkit, and
 * it keeps no reference to the schemas it checks. Verdicts are remembered by the schema's JSON
 * text (bounded), since many parameters share a shape.
 */
export function schemaProblems(schema: JsonSchema): string | undefined {
  const key = JSON.stringify(schema);
  if (checkedSchemas.has(key)) return checkedSchemas.get(key);
  const ajv = (metaValidator ??= new Ajv({ strict: false }));
  const verdict = ajv.validateSchema(schema) ? undefined : ajv.errorsText(ajv.errors, { dataVar: 'schema' });
  if (checkedSchemas.size >= 4096) checkedSchemas.clear();
  checkedSchemas.set(key, verdict);
  return verdict;
}
