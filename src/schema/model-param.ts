import { erasedClassHint } from './erased-class';
import type { JsonSchema, JsonSchemaType } from '../common/json-schema';
import { isPlainObject } from '../common/plain-object';
import { isStandardSchema } from '../common/standard-schema';
import type { ManifestParam } from '../common/manifest';
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
  const required = options.required ?? (manifest ? !manifest.optional : true);
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
    const implied = typeFromKeywords(schema);
    if (implied) schema.type = implied;
  }
  const description = options.description ?? manifest?.description ?? fragment?.description;
  if (description) schema.description = description;
  else delete schema.description;

  if (schema.type === undefined && schema.enum === undefined && schema.anyOf === undefined && schema.oneOf === undefined && schema.$ref === undefined && schema.const === undefined) {
    // no metadata at all: most likely the compiler's flags, which the fixes below go around
    const code = designType === undefined ? 'DECORATOR_METADATA_MISSING' : 'INVALID_DEFINITION';
    const erased = erasedClassHint(designType, manifest?.typeName, (type) => `@ToolParam({ type: () => ${type} })`);
    throw new ToolkitError(code, `${owner} ${label}: its type is unknown: ${reflectionSaw(designType)}. ${TYPE_FIXES}${erased}`);
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
    ...(standard ? { standard } : {}),
  };
}

/** The two ways to name a type reflection cannot see (never `x?: T`: illegal before an injected parameter). */
const TYPE_FIXES =
  "Name it in @ToolParam: type: () => String (or Number, Boolean, [String] for an array, type: () => MyDto for a DTO class) " +
  "or schema: { type: '…' }; " +
  'or generate a manifest with toolwright-schema and pass it to new Toolkit({ manifest }).';

/** What reflection reported for a parameter whose type it could not tell, and why. */
function reflectionSaw(designType: unknown): string {
  if (designType === undefined) {
    return (
      'the compiler emitted no design:paramtypes for it. Enable "experimentalDecorators" and "emitDecoratorMetadata" in ' +
      "tsconfig.json and compile with tsc or swc, with `import 'reflect-metadata'` at the top of your entry point; " +
      'esbuild, tsx and vitest on Vite 7 or older emit no decorator metadata'
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

/** The one JSON type that a fragment's keywords imply (`minimum` → number…), if exactly one. */
function typeFromKeywords(schema: JsonSchema): JsonSchemaType | undefined {
  if (schema.enum !== undefined || schema.const !== undefined || schema.anyOf || schema.oneOf || schema.allOf || schema.$ref) return undefined;
  const implied = KEYWORD_TYPES.filter(([, keywords]) => keywords.some((k) => schema[k] !== undefined)).map(([type]) => type);
  return implied.length === 1 ? implied[0] : undefined;
}
