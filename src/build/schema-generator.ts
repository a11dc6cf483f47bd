import type * as TS from 'typescript';
import { ts } from './compiler';
import { getDefaultArgs, JsonSchemaGenerator, type Args } from 'typescript-json-schema';
import type { JsonSchema } from '../model/json-schema';
import { normalizeSchema } from './normalize-schema';

/** typescript-json-schema settings: exact, inlined schemas with `required` and no extra props. */
const GENERATOR_ARGS: Args = {
  ...getDefaultArgs(),
  required: true,
  noExtraProps: true,
  strictNullChecks: true,
  ref: false,
  aliasRef: false,
  topRef: false,
  titles: false,
  excludePrivate: true,
  // Never type-check the whole Program: it would cost seconds and fail on unrelated errors.
  ignoreErrors: true,
};

/** Private members of the generator this module relies on (checked at run time). */
interface GeneratorInternals {
  getClassDefinition?: (type: TS.Type, definition: Record<string, unknown>) => Record<string, unknown>;
  getTypeDefinition?: (type: TS.Type) => Record<string, unknown>;
  parseCommentsIntoDefinition?: (symbol: TS.Symbol, definition: Record<string, unknown>, other: Record<string, unknown>) => void;
}

/** Turns checker types into manifest-ready JSON Schemas with typescript-json-schema. */
export interface SchemaReader {
  /**
   * The normalised schema of a type (a fresh copy the caller may change); throws the
   * generator's error when JSON Schema cannot express the type.
   */
  schemaOf(type: TS.Type): JsonSchema | undefined;
  /** The validation keywords and description written as JSDoc on `symbol` (a type alias). */
  annotationsOf(symbol: TS.Symbol): Record<string, unknown>;
}

/**
 * `Record<string, T>` is a mapped type; typescript-json-schema 0.68 sees no index signature in
 * it and, with `noExtraProps`, emits `additionalProperties: false` (an object that accepts
 * nothing). Patch the instance so a string index always becomes `additionalProperties: T`.
 */
function patchStringIndexes(generator: JsonSchemaGenerator, checker: TS.TypeChecker): void {
  const internals = generator as unknown as GeneratorInternals;
  const original = internals.getClassDefinition;
  const getTypeDefinition = internals.getTypeDefinition;
  if (typeof original !== 'function' || typeof getTypeDefinition !== 'function') return;
  internals.getClassDefinition = function patched(this: JsonSchemaGenerator, type, definition) {
    const result = original.call(this, type, definition);
    if (result.additionalProperties === false && result.patternProperties === undefined) {
      const index = checker.getIndexInfosOfType(type).find((info) => (info.keyType.flags & ts.TypeFlags.String) !== 0);
      if (index !== undefined) result.additionalProperties = getTypeDefinition.call(this, index.type);
    }
    return result;
  };
}

/**
 * Runs `fn` with `console.warn`/`console.error` silenced. typescript-json-schema prints notes
 * such as "initializer is expression for property x" (it then leaves out that `default`);
 * they are not actionable and would break the CLI's promise to be quiet off a TTY.
 */
function quietly<T>(fn: () => T): T {
  const { warn, error } = console;
  console.warn = () => undefined;
  console.error = () => undefined;
  try {
    return fn();
  } finally {
    console.warn = warn;
    console.error = error;
  }
}

/**
 * Creates a typescript-json-schema generator over the Program's checker that is fed the
 * parameter and return types directly. `buildGenerator()` would first walk every declaration
 * of every file (lib, `@types`, dependencies) to index named types, which costs more than
 * building the Program; nothing here looks types up by name. (That index only feeds
 * abstract-class `oneOf` expansion, which tool parameters do not want.)
 */
export function createSchemaReader(program: TS.Program): SchemaReader {
  const checker = program.getTypeChecker();
  // The generator keeps this object: entries added later are visible to getSchemaForSymbol.
  const types: Record<string, TS.Type> = {};
  const generator = new JsonSchemaGenerator([], types, {}, {}, checker, GENERATOR_ARGS);
  patchStringIndexes(generator, checker);
  const internals = generator as unknown as GeneratorInternals;
  // The checker interns types, so parameters of one type share one generated schema.
  const cache = new Map<TS.Type, { schema?: JsonSchema; error?: unknown }>();
  return {
    schemaOf(type) {
      let entry = cache.get(type);
      if (entry === undefined) {
        const name = `__toolwright_type_${cache.size}`;
        types[name] = type;
        try {
          const schema = quietly(() => generator.getSchemaForSymbol(name, false));
          // Read right after the call: the generator resets its definitions per schema.
          entry = { schema: normalizeSchema(schema, generator.ReffedDefinitions) };
        } catch (error) {
          entry = { error };
        }
        cache.set(type, entry);
      }
      if (entry.error !== undefined) throw entry.error;
      return entry.schema === undefined ? undefined : structuredClone(entry.schema);
    },
    annotationsOf(symbol) {
      const out: Record<string, unknown> = {};
      if (typeof internals.parseCommentsIntoDefinition === 'function') internals.parseCommentsIntoDefinition.call(generator, symbol, out, {});
      return out;
    },
  };
}
