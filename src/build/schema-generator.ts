import * as ts from 'typescript';
import { getDefaultArgs, JsonSchemaGenerator, type Args, type SymbolRef } from 'typescript-json-schema';
import type { JsonSchema } from '../common/json-schema';
import { normalizeSchema } from './normalize-schema';
import { VIRTUAL_PROPERTY } from './schema-program';

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
  // A full type check would cost seconds and fail on unrelated errors; the caller checks the
  // virtual module's diagnostics instead.
  ignoreErrors: true,
};

/** Private members of the generator this module relies on (checked at run time). */
interface GeneratorInternals {
  getClassDefinition?: (type: ts.Type, definition: Record<string, unknown>) => Record<string, unknown>;
  getTypeDefinition?: (type: ts.Type) => Record<string, unknown>;
  parseCommentsIntoDefinition?: (symbol: ts.Symbol, definition: Record<string, unknown>, other: Record<string, unknown>) => void;
}

/** Reads JSON Schemas of the virtual module's interfaces. */
export interface SchemaReader {
  /**
   * The normalised schema of property `v` of the named virtual interface (a fresh copy the
   * caller may change); throws when the type cannot be expressed.
   */
  schemaOf(interfaceName: string): JsonSchema | undefined;
  /** The type of property `v` of the named virtual interface. */
  typeOf(interfaceName: string): ts.Type | undefined;
  /** The validation keywords and description written as JSDoc on `symbol` (a type alias). */
  annotationsOf(symbol: ts.Symbol): Record<string, unknown>;
}

/**
 * `Record<string, T>` is a mapped type; typescript-json-schema 0.68 sees no index signature in
 * it and, with `noExtraProps`, emits `additionalProperties: false` (an object that accepts
 * nothing). Patch the instance so a string index always becomes `additionalProperties: T`.
 */
function patchStringIndexes(generator: JsonSchemaGenerator, checker: ts.TypeChecker): void {
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
 * Creates a typescript-json-schema generator that knows only the virtual module's interfaces.
 * `buildGenerator()` would also walk every declaration of every file in the Program (lib,
 * `@types`, dependencies) to index symbols by name; that walk costs more than building the
 * Program and is not needed, since every schema starts from a virtual interface. (The only
 * feature it feeds is abstract-class `oneOf` expansion, which tool parameters do not want.)
 */
export function createSchemaReader(program: ts.Program, virtualSource: ts.SourceFile): SchemaReader {
  const checker = program.getTypeChecker();
  const symbols: SymbolRef[] = [];
  const allSymbols: Record<string, ts.Type> = {};
  const userSymbols: Record<string, ts.Symbol> = {};
  const propertyTypeNodes = new Map<string, ts.TypeNode>();
  for (const statement of virtualSource.statements) {
    if (!ts.isInterfaceDeclaration(statement)) continue;
    const member = statement.members[0];
    if (member !== undefined && ts.isPropertySignature(member) && member.type !== undefined) {
      propertyTypeNodes.set(statement.name.text, member.type);
    }
    const symbol = checker.getSymbolAtLocation(statement.name);
    if (symbol === undefined) continue;
    const name = statement.name.text;
    symbols.push({ name, typeName: name, fullyQualifiedName: checker.getFullyQualifiedName(symbol), symbol });
    allSymbols[name] = checker.getTypeAtLocation(statement);
    userSymbols[name] = symbol;
  }
  const generator = new JsonSchemaGenerator(symbols, allSymbols, userSymbols, {}, checker, GENERATOR_ARGS);
  patchStringIndexes(generator, checker);
  const internals = generator as unknown as GeneratorInternals;
  // The schema of `v` depends on its type alone (the property has no JSDoc and its type node
  // names no alias), and the checker interns types: parameters of one type share one schema.
  const byType = new Map<ts.Type, { schema?: JsonSchema; error?: unknown }>();
  const typeOf = (interfaceName: string): ts.Type | undefined => {
    const node = propertyTypeNodes.get(interfaceName);
    return node === undefined ? undefined : checker.getTypeFromTypeNode(node);
  };
  const generate = (interfaceName: string): JsonSchema | undefined => {
    const wrapper = generator.getSchemaForSymbol(interfaceName, false) as { properties?: Record<string, unknown> };
    const property = wrapper.properties?.[VIRTUAL_PROPERTY];
    // Read right after the call: the generator resets its definitions per schema.
    return property === undefined ? undefined : normalizeSchema(property, generator.ReffedDefinitions);
  };
  return {
    typeOf,
    schemaOf(interfaceName) {
      const type = typeOf(interfaceName);
      if (type === undefined) return generate(interfaceName);
      let entry = byType.get(type);
      if (entry === undefined) {
        try {
          entry = { schema: generate(interfaceName) };
        } catch (error) {
          entry = { error };
        }
        byType.set(type, entry);
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
