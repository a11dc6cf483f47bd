import { isPlainObject } from '../../utils/plain-object';
import type { JsonSchema, JsonSchemaDefinition, ObjectJsonSchema } from '../../model/json-schema';
import { ToolkitError } from '../../errors';
import type { GeminiSchema } from './provider-definitions';
import { GEMINI_FORMATS, GEMINI_SCHEMA_KEYWORDS } from './provider-rules';
import { branchPath, cloneJson, describePath, inlineSingleAllOf, isObjectSchema, itemsPath, propertyPath, type Reporter, resolveLocalRef, tupleAsItems, typeList, typeOfValues } from './schema-utils';

interface GeminiContext {
  readonly tool: string;
  readonly report: Reporter;
  readonly root: JsonSchema;
  /** The `$ref`s being inlined along the current path (to detect recursion). */
  readonly refs: string[];
}

/**
 * Lowers a canonical parameters schema to Gemini's OpenAPI subset. Returns `undefined` for a
 * tool without parameters (Gemini rejects an object without properties; `parameters` is then
 * omitted). Every change is reported, prefixed `gemini:`.
 *
 * @throws ToolkitError `INVALID_DEFINITION` for what Gemini cannot express: recursive `$ref`s,
 *   `allOf` with several members, nested objects without properties, untyped schemas.
 * @internal
 */
export function lowerGemini(tool: string, root: ObjectJsonSchema, report: Reporter): GeminiSchema | undefined {
  if (Object.keys(root.properties ?? {}).length === 0) {
    report('', 'gemini: the tool has no parameters, so parameters is omitted (Gemini rejects an object without properties)');
    return undefined;
  }
  return geminiNode(root, '', { tool, report, root, refs: [] });
}

function definitionError(ctx: GeminiContext, path: string, what: string, fix: string): ToolkitError {
  return new ToolkitError(
    'INVALID_DEFINITION',
    `Tool "${ctx.tool}" cannot be sent to Gemini: the schema at ${describePath(path)} ${what}. ${fix}.`,
    { tool: ctx.tool },
  );
}

function isNullSchema(schema: JsonSchemaDefinition): boolean {
  if (typeof schema === 'boolean') return false;
  const types = typeList(schema);
  return types.length === 1 && types[0] === 'null' && schema.properties === undefined;
}

/** Structural rewrites (refs, unions, type arrays) applied before the keyword pass. */
function normalize(input: JsonSchema, path: string, ctx: GeminiContext): JsonSchema {
  const tuple = tupleAsItems(input, path, ctx.report, 'gemini: ');
  let node = inlineSingleAllOf(tuple, false);
  if (node === 'several') throw definitionError(ctx, path, 'uses allOf with several members', 'Merge them into one schema');
  if (node === false) throw falseSchemaError(ctx, branchPath(path, 'allOf', 0));
  if (node !== tuple) ctx.report(path, 'gemini: inlined a single-member allOf');
  if (node.oneOf !== undefined) {
    if (node.anyOf !== undefined) throw definitionError(ctx, path, 'uses both anyOf and oneOf', 'Use one union keyword');
    const { oneOf, ...rest } = node;
    node = { ...rest, anyOf: oneOf };
    ctx.report(path, 'gemini: oneOf became anyOf');
  }
  if (node.anyOf !== undefined) {
    if (node.anyOf.includes(false)) {
      // a branch that is false matches nothing: the union means the same without it
      node = { ...node, anyOf: node.anyOf.filter((b) => b !== false) };
      ctx.report(path, 'gemini: dropped the anyOf branch false (it matches nothing)');
    }
    const union = node.anyOf ?? [];
    const branches = union.filter((b) => !isNullSchema(b));
    if (branches.length !== union.length) {
      node = { ...node, anyOf: branches, nullable: true };
      ctx.report(path, 'gemini: the null branch of anyOf became nullable: true');
    }
    if (branches.length === 1 && node.type === undefined) {
      const { anyOf: _union, ...rest } = node;
      const [only] = branches;
      node = { ...(only === true ? {} : only), ...rest };
      ctx.report(path, 'gemini: inlined the single remaining anyOf branch');
    }
  }
  if (Array.isArray(node.type)) {
    const types = node.type;
    const nonNull = types.filter((t) => t !== 'null');
    const hasNull = nonNull.length !== types.length;
    const { type, ...rest } = node;
    if (nonNull.length <= 1) {
      node = nonNull.length === 1 ? { ...rest, type: nonNull[0] } : { ...rest };
      if (hasNull) node.nullable = true;
      ctx.report(
        path,
        `gemini: type [${types.join(', ')}] became ${nonNull.length === 1 ? `type ${nonNull[0]}` : 'no type'}${hasNull ? ' with nullable: true' : ''}`,
      );
    } else {
      node = { ...rest, anyOf: nonNull.map((t): JsonSchema => ({ type: t })) };
      if (hasNull) node.nullable = true;
      ctx.report(path, `gemini: type [${types.join(', ')}] became anyOf${hasNull ? ' with nullable: true' : ''}`);
    }
  }
  return node;
}

/** The schema `false` (no value) where Gemini has to express it: an error naming the path. */
function falseSchemaError(ctx: GeminiContext, path: string): ToolkitError {
  return definitionError(ctx, path, 'is the schema false (it accepts no value), which Gemini cannot express', 'Remove it');
}

function geminiNode(definition: JsonSchemaDefinition, path: string, ctx: GeminiContext): GeminiSchema {
  if (definition === false) throw falseSchemaError(ctx, path);
  // `true` takes any value, as `{}` says (and Gemini then asks for a type)
  const input = definition === true ? {} : definition;
  if (typeof input.$ref === 'string') {
    const { $ref, ...siblings } = input;
    const target = resolveLocalRef(ctx.root, $ref, ctx.tool, path);
    if (ctx.refs.includes(target.name)) {
      throw definitionError(
        ctx,
        path,
        `is recursive (${$ref} refers to itself), and Gemini has no $ref`,
        'Bound the recursion with an explicit nested schema',
      );
    }
    ctx.report(path, `gemini: inlined $ref ${$ref}`);
    ctx.refs.push(target.name);
    try {
      return geminiNode(target.schema === false ? false : { ...(target.schema === true ? {} : target.schema), ...siblings }, path, ctx);
    } finally {
      ctx.refs.pop();
    }
  }

  const node = normalize(input, path, ctx);
  if (typeof node.$ref === 'string') return geminiNode(node, path, ctx); // an inlined anyOf branch
  const out: GeminiSchema = {};
  let exclusiveMin: number | undefined;
  let exclusiveMax: number | undefined;
  let format: unknown;

  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case 'type':
        out.type = value as GeminiSchema['type'];
        break;
      case 'description':
        // an enum note may already have been written (it starts from node.description)
        if (out.description === undefined) out.description = value as string;
        break;
      case 'nullable':
        if (value === true) out.nullable = true;
        break;
      case 'enum':
      case 'const':
        lowerEnum(key === 'enum' ? (value as unknown[]) : [value], key, node, out, path, ctx);
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof value === 'number') {
          if (key === 'exclusiveMinimum') exclusiveMin = value;
          else exclusiveMax = value;
        } else ctx.report(path, `gemini: dropped the boolean (draft-04) ${key}`);
        break;
      case 'examples':
        if (Array.isArray(value) && value.length > 0 && node.example === undefined) {
          out.example = cloneJson(value[0]);
          ctx.report(path, 'gemini: examples became example (the first one)');
        } else ctx.report(path, 'gemini: dropped examples');
        break;
      case 'properties': {
        const properties: Record<string, GeminiSchema> = {};
        for (const [name, child] of Object.entries(value as Record<string, JsonSchemaDefinition>)) {
          if (child === false) ctx.report(propertyPath(path, name), 'gemini: dropped the property: its schema is false (it accepts no value)');
          else properties[name] = geminiNode(child, propertyPath(path, name), ctx);
        }
        out.properties = properties;
        break;
      }
      case 'required':
        break; // set below, from the properties
      case 'format':
        format = value; // checked below, against the final type
        break;
      case 'items':
        if (isPlainObject(value)) out.items = geminiNode(value as JsonSchema, itemsPath(path), ctx);
        else ctx.report(path, `gemini: dropped items: ${String(value)}`);
        break;
      case 'anyOf':
        out.anyOf = (value as JsonSchemaDefinition[]).map((branch, i) => geminiNode(branch, branchPath(path, 'anyOf', i), ctx));
        break;
      default:
        if (GEMINI_SCHEMA_KEYWORDS.has(key)) {
          (out as Record<string, unknown>)[key] = cloneJson(value);
        } else {
          ctx.report(path, `gemini: dropped ${key}`);
        }
    }
  }

  if (format !== undefined) lowerFormat(format, out, path, ctx);
  if (exclusiveMin !== undefined) inclusiveBound(out, 'minimum', exclusiveMin, path, ctx);
  if (exclusiveMax !== undefined) inclusiveBound(out, 'maximum', exclusiveMax, path, ctx);

  if (isObjectSchema(node)) {
    if (out.type === undefined) {
      out.type = 'object';
      ctx.report(path, 'gemini: added type: object');
    }
    const names = Object.keys(out.properties ?? {});
    if (names.length === 0) {
      throw definitionError(
        ctx,
        path,
        'is an object without properties (a free-form object or a map), which Gemini rejects',
        'Declare its properties',
      );
    }
    const required = (node.required ?? []).filter((name) => names.includes(name));
    if (required.length > 0) out.required = required;
  }
  if (out.type === 'array' && out.items === undefined) {
    out.items = { type: 'string' };
    ctx.report(path, 'gemini: the array had no items; items set to { type: string } (Gemini needs items)');
  }
  if (out.type === undefined && out.anyOf === undefined) {
    throw definitionError(ctx, path, 'has no type, and Gemini needs one', 'Give it a type');
  }
  return out;
}

/** Gemini enums are strings: keep string enums, move other values to the description. */
function lowerEnum(
  values: unknown[],
  keyword: 'enum' | 'const',
  node: JsonSchema,
  out: GeminiSchema,
  path: string,
  ctx: GeminiContext,
): void {
  const nonNull = values.filter((v) => v !== null);
  if (nonNull.length !== values.length) {
    out.nullable = true;
    ctx.report(path, `gemini: null in ${keyword} became nullable: true`);
  }
  // Gemini takes an enum on strings only ("enum: only allowed for STRING type")
  if (nonNull.every((v): v is string => typeof v === 'string') && (node.type === undefined || node.type === 'string')) {
    out.enum = nonNull;
    if (keyword === 'const') ctx.report(path, 'gemini: const became enum');
    if (node.type === undefined) {
      out.type = 'string';
      ctx.report(path, 'gemini: added type: string for the enum');
    }
    return;
  }
  const note = `Allowed values: ${nonNull.map((v) => JSON.stringify(v)).join(', ')}.`;
  const description = out.description ?? node.description;
  out.description = description === undefined ? note : `${description} (${note})`;
  if (node.type === undefined) {
    const inferred = typeOfValues(nonNull);
    if (inferred !== undefined) out.type = inferred;
  }
  const what = nonNull.every((v) => typeof v === 'string') ? `on type ${String(node.type)}` : 'of non-string values';
  ctx.report(path, `gemini: dropped ${keyword} ${what} (Gemini enums are strings); listed them in the description`);
}

/**
 * Keeps a `format` Gemini accepts for the type ({@link GEMINI_FORMATS}); any other is dropped and
 * written into the description instead, so that the model still knows what the value must look like.
 */
function lowerFormat(format: unknown, out: GeminiSchema, path: string, ctx: GeminiContext): void {
  const type = out.type;
  const allowed = type === 'string' || type === 'number' || type === 'integer' ? GEMINI_FORMATS[type] : undefined;
  if (typeof format === 'string' && allowed?.has(format) && (format !== 'enum' || out.enum !== undefined)) {
    out.format = format;
    return;
  }
  if (typeof format !== 'string') {
    ctx.report(path, `gemini: dropped format ${JSON.stringify(format)} (not a string)`);
    return;
  }
  out.description = out.description === undefined ? `Format: ${format}.` : `${out.description} (format: ${format})`;
  const accepted = allowed === undefined ? `no format for ${type === undefined ? 'a schema without a type' : `type ${type}`}` : `only ${[...allowed].join(', ')} for type ${type}`;
  ctx.report(path, `gemini: dropped format ${format} (Gemini accepts ${accepted}); noted it in the description`);
}

/** Gemini has no exclusive bounds: the bound becomes inclusive unless a tighter one exists. */
function inclusiveBound(
  out: GeminiSchema,
  bound: 'minimum' | 'maximum',
  exclusive: number,
  path: string,
  ctx: GeminiContext,
): void {
  const keyword = bound === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum';
  const current = out[bound];
  const tighter = current !== undefined && (bound === 'minimum' ? current > exclusive : current < exclusive);
  if (tighter) {
    ctx.report(path, `gemini: dropped ${keyword} ${exclusive} (${bound} ${current} is tighter)`);
    return;
  }
  out[bound] = exclusive;
  ctx.report(path, `gemini: ${keyword} ${exclusive} became ${bound} ${exclusive} (Gemini has no exclusive bounds; the bound is now inclusive)`);
}
