import { erasedClassHint } from './erased-class';
import type { JsonSchema, JsonSchemaType } from '../model/json-schema';
import { isPlainObject } from '../utils/plain-object';
import { isStandardSchema } from '../model/standard-schema';
import type { ManifestParam } from '../model/manifest';
import { ToolkitError } from '../errors';
import type { ToolParamOptions } from '../metadata/records';
import type { ModelParamDescriptor } from '../metadata/tool-descriptor';
import { deepFreeze } from './lowering/schema-utils';
import type { ManifestType } from './manifest-types';
import { schemaProblems } from './schema-problems';
import { standardJsonSchema } from './standard-json-schema';
import { builtinSchema, dtoSchema, enumSchema, hasValidationMetadata, isUserClass } from './type-schema';

/**
 * Describes a parameter the model fills: its name, whether it is required, and its JSON Schema.
 * Explicit decorator options (enum, type thunks, DTO classes with their class-validator
 * constraints) win over the manifest, which wins over what reflection saw. `declared` is the
 * class the manifest module names where reflection sees none: it counts as a type thunk.
 *
 * @throws ToolkitError `MISSING_NAME`, `INVALID_DEFINITION` (a type nobody can see, a class
 *   without class-validator decorators, an invalid schema fragment, an array without item type).
 * @internal
 */
export function buildModelParam(
  owner: string,
  index: number,
  label: string,
  options: ToolParamOptions,
  manifest: ManifestParam | undefined,
  designType: unknown,
  declared?: ManifestType,
): ModelParamDescriptor {
  const name = options.name ?? manifest?.name;
  if (!name) {
    throw new ToolkitError(
      'MISSING_NAME',
      `${owner} parameter #${index} has no name. Reflection cannot see parameter names: write ` +
        "@ToolParam({ name: '…' }), or generate a manifest with toolwright-schema and pass it to new Toolkit({ manifest }).",
    );
  }
  const fallback = options.default;
  if (fallback !== undefined && options.required === true) {
    throw new ToolkitError('INVALID_DEFINITION', `${owner} ${label}: a parameter with a default is optional; drop required: true or the default.`);
  }
  const required = options.required ?? (fallback !== undefined ? false : manifest ? !manifest.optional : true);
  // A declared preset is never shown to a model: its schema does not matter.
  if (options.preset === true) return { kind: 'model', index, name, required, schema: deepFreeze({}), preset: true };
  // a Standard Schema (zod, valibot, arktype) says the whole type: its library validates, its converter shows it
  const standard = isStandardSchema(options.schema) ? options.schema : undefined;
  const fragment = standard ? standardJsonSchema(standard, `${owner} ${label}`) : (options.schema as JsonSchema | undefined);

  let hint: unknown = options.type ? options.type() : declared && (declared.array ? [declared.type] : declared.type);
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
  if (standard) inferred = undefined;
  else if (options.enum) inferred = enumSchema(options.enum);
  else if (elementType !== undefined && typeof elementType === 'object') inferred = enumSchema(elementType as never);
  else if (isUserClass(elementType)) {
    if (!hasValidationMetadata(elementType)) {
      throw new ToolkitError(
        'INVALID_DEFINITION',
        `${owner} ${label}: class ${elementType.name} has no class-validator decorators, so its schema is unknown. ` +
          'Decorate its properties (@IsString(), @IsOptional()…), or declare the parameter with an interface instead of a class ' +
          '(a plain object, checked by the schema the manifest or @ToolParam({ schema }) gives).',
      );
    }
    inferred = dtoSchema(elementType);
    dto = { type: elementType, array };
  } else inferred = builtinSchema(elementType, options.integer);
  if (inferred && array) inferred = { type: 'array', items: inferred };
  if (array && !inferred) inferred = { type: 'array' };

  const explicit = standard !== undefined || options.enum !== undefined || options.type !== undefined || dto !== undefined;
  const base = explicit ? inferred : (manifest?.schema ?? inferred);
  const schema: JsonSchema = { ...(base ?? {}), ...(fragment ?? {}) };
  if (options.integer) {
    if (schema.type === 'array') schema.items = { ...(isPlainObject(schema.items) ? schema.items : {}), type: 'integer' };
    else schema.type = 'integer';
  }
  // `days: number | undefined` reflects as Object (tsc with strictNullChecks, swc): a fragment
  // such as `{ minimum: 1 }` still tells which type is meant.
  if (schema.type === undefined) {
    const implied = composite(schema) ? undefined : (typeFromKeywords(schema) ?? typeOfDefault(fallback, options.integer));
    if (implied) schema.type = implied;
  }
  if (fallback !== undefined) schema.default = checkedDefault(`${owner} ${label}`, fallback, schema);
  const description = options.description ?? manifest?.description ?? fragment?.description;
  if (description) schema.description = description;
  else delete schema.description;

  if (schema.type === undefined && schema.enum === undefined && schema.anyOf === undefined && schema.oneOf === undefined && schema.$ref === undefined && schema.const === undefined) {
    // no metadata at all: most likely the compiler's flags, which the fixes below go around
    const code = designType === undefined ? 'DECORATOR_METADATA_MISSING' : 'INVALID_DEFINITION';
    const erased = erasedClassHint(designType, manifest?.typeName, (type) => `@ToolParam({ type: () => ${type} })`);
    throw new ToolkitError(code, `${owner} ${label}: its type is unknown: ${reflectionSaw(designType)}. Fix: ${typeFixes(name)}; ${MANIFEST_FIX}.${erased}`);
  }
  // Inferred schemas are valid by construction; fragments written by hand or read from a manifest file are checked.
  const problems = fragment !== undefined || base === manifest?.schema ? schemaProblems(schema) : undefined;
  if (problems !== undefined) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${owner} ${label}: its schema is not a valid JSON Schema (${problems}). Fix the @ToolParam schema fragment` +
        `${manifest?.schema ? ' or regenerate the manifest with toolwright-schema' : ''}.`,
    );
  }
  // a fragment's `$schema` (zod's toJSONSchema writes one) named the dialect it was checked by; inside a tool's schema it says nothing
  delete schema.$schema;
  if (schema.type === 'array' && schema.items === undefined && schema.prefixItems === undefined) {
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
    ...(date && !standard ? { date: true } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
    ...(standard ? { standard } : {}),
  };
}

/** Which compilers emit decorator metadata, for messages. */
export const NO_METADATA =
  'esbuild, tsx and vitest on Vite 7 or older emit none; tsc, swc, Vite 8 (vitest 4.1+) and Bun do, given "emitDecoratorMetadata"';

/**
 * The ways to name the type of parameter `name` in its decorator where reflection cannot see it
 * (never `x?: T`: illegal before an injected parameter).
 * @internal
 */
export function typeFixes(name: string): string {
  const param = name.replace(/['\\]/g, '\\$&');
  return (
    `name its type: @ToolParam({ name: '${param}', type: () => String }) (or Number, Boolean, Date, [String] for an array, ` +
    "type: () => MyDto for a DTO class), or schema: { type: '…' }, or for an optional parameter a default of its type (default: 3)"
  );
}

const MANIFEST_FIX = 'or generate the manifest module with toolwright-schema (-o tools.manifest.ts) and pass it to new Toolkit({ manifest })';

/** The JSON type a default names: `'a'` a string, `3` a number (an integer with `integer: true`), `true` a boolean. */
function typeOfDefault(value: ToolParamOptions['default'], integer: boolean | undefined): JsonSchemaType | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return integer ? 'integer' : 'number';
  return typeof value === 'string' ? 'string' : 'boolean';
}

/** A default that the parameter's own schema accepts (its type, its enum), or a definition error. */
function checkedDefault(owner: string, value: string | number | boolean, schema: JsonSchema): string | number | boolean {
  const type = typeOfDefault(value, Number.isInteger(value));
  const types: readonly unknown[] = schema.type === undefined ? [type] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const fits = (types.includes(type) || (type === 'integer' && types.includes('number'))) && (!Array.isArray(schema.enum) || schema.enum.includes(value));
  if (!fits) {
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `${owner}: its default ${JSON.stringify(value)} is not a value of its type (${JSON.stringify(schema.type ?? schema.enum ?? 'unknown')}). ` +
        'A default is a string, number or boolean the parameter accepts.',
    );
  }
  return value;
}

/** What reflection reported for a parameter whose type it could not tell, and why. */
function reflectionSaw(designType: unknown): string {
  if (designType === undefined) {
    return (
      'the compiler emitted no design:paramtypes for it. Enable "experimentalDecorators" and "emitDecoratorMetadata" in ' +
      `tsconfig.json, with \`import 'reflect-metadata'\` at the top of your entry point (${NO_METADATA})`
    );
  }
  if (designType === Object) {
    return (
      'reflection saw Object, which the compiler emits for `T | undefined` and `T | null` under strictNullChecks ' +
      '(tsc with "strict"), for other unions, interfaces, type aliases of objects, unknown and any'
    );
  }
  return `reflection saw ${typeof designType === 'function' ? designType.name || 'an anonymous function' : String(designType)}`;
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
  ['array', ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems']],
  ['object', ['properties', 'required', 'additionalProperties', 'unevaluatedProperties', 'dependentRequired', 'minProperties', 'maxProperties']],
];

/** A schema whose values an enum, a constant, a combination or a reference says: no type is implied. */
function composite(schema: JsonSchema): boolean {
  return schema.enum !== undefined || schema.const !== undefined || schema.anyOf !== undefined || schema.oneOf !== undefined || schema.allOf !== undefined || schema.$ref !== undefined;
}

/** The one JSON type that a fragment's keywords imply (`minimum` → number…), if exactly one. */
function typeFromKeywords(schema: JsonSchema): JsonSchemaType | undefined {
  const implied = KEYWORD_TYPES.filter(([, keywords]) => keywords.some((k) => schema[k] !== undefined)).map(([type]) => type);
  return implied.length === 1 ? implied[0] : undefined;
}
