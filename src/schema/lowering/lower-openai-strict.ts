import { isPlainObject } from '../../utils/plain-object';
import type { JsonSchema, JsonSchemaDefinition, JsonSchemaType, ObjectJsonSchema } from '../../model/json-schema';
import { ToolkitError } from '../../errors';
import { OPENAI_STRICT_FORMATS, OPENAI_STRICT_KEYWORDS, OPENAI_STRICT_LIMITS } from './provider-rules';
import { branchPath, cloneJson, describePath, inlineSingleAllOf, isObjectSchema, itemsPath, propertyPath, type Reporter, tupleAsItems, typeOfValues } from './schema-utils';

interface StrictContext {
  readonly tool: string;
  readonly report: Reporter;
  properties: number;
  enumValues: number;
  stringLength: number;
}

const STRICT_FIX = 'or lower this tool without strict mode ({ strict: false })';

/**
 * Lowers a canonical parameters schema to the OpenAI Structured Outputs ("strict") form:
 * every property required, optionals as `null` unions, `additionalProperties: false` on every
 * object, unsupported keywords (`default`, `minLength`…) dropped. Every change is reported.
 *
 * @throws ToolkitError `INVALID_DEFINITION` when the schema cannot be expressed (too deep, too
 *   many properties, `allOf`, maps with free-form keys, a schema without a type).
 * @internal
 */
export function lowerOpenAIStrict(tool: string, root: ObjectJsonSchema, report: Reporter): JsonSchema {
  const ctx: StrictContext = { tool, report, properties: 0, enumValues: 0, stringLength: 0 };
  const lowered = strictNode(root, '', ctx, 0);
  const limits = OPENAI_STRICT_LIMITS;
  if (ctx.properties > limits.maxProperties) {
    throw limitError(ctx, `has ${ctx.properties} object properties in all; OpenAI strict mode allows at most ${limits.maxProperties}`);
  }
  if (ctx.enumValues > limits.maxEnumValues) {
    throw limitError(ctx, `has ${ctx.enumValues} enum values in all; OpenAI strict mode allows at most ${limits.maxEnumValues}`);
  }
  if (ctx.stringLength > limits.maxTotalStringLength) {
    throw limitError(
      ctx,
      `has ${ctx.stringLength} characters of property names, enum and const values; OpenAI strict mode allows at most ${limits.maxTotalStringLength}`,
    );
  }
  return lowered;
}

function limitError(ctx: StrictContext, what: string): ToolkitError {
  return new ToolkitError(
    'INVALID_DEFINITION',
    `Tool "${ctx.tool}" cannot be sent to OpenAI in strict mode: its parameters schema ${what}. ` +
      `Split the tool or simplify its parameters, ${STRICT_FIX}.`,
    { tool: ctx.tool },
  );
}

function definitionError(ctx: StrictContext, path: string, what: string, fix: string): ToolkitError {
  return new ToolkitError(
    'INVALID_DEFINITION',
    `Tool "${ctx.tool}" cannot be sent to OpenAI in strict mode: the schema at ${describePath(path)} ${what}. ` +
      `${fix}, ${STRICT_FIX}.`,
    { tool: ctx.tool },
  );
}

/** The schema `false` (no value) where strict mode has to express it: an error naming the path. */
function falseSchemaError(ctx: StrictContext, path: string): ToolkitError {
  return definitionError(ctx, path, 'is the schema false (it accepts no value), which strict mode cannot express', 'Remove it');
}

function strictNode(input: JsonSchemaDefinition, path: string, ctx: StrictContext, depth: number): JsonSchema {
  if (input === false) throw falseSchemaError(ctx, path);
  // `true` takes any value, as `{}` says (and strict mode then asks for a type)
  const own = input === true ? {} : input;
  const inlined = inlineSingleAllOf(own, true);
  if (inlined === 'several') throw definitionError(ctx, path, 'uses allOf, which strict mode does not support', 'Merge the allOf members into one schema');
  if (inlined === false) throw falseSchemaError(ctx, branchPath(path, 'allOf', 0));
  if (inlined !== own) ctx.report(path, 'inlined a single-member allOf (strict mode does not support allOf)');
  let node = inlined;
  if (node.anyOf !== undefined && node.oneOf !== undefined) {
    throw definitionError(ctx, path, 'uses both anyOf and oneOf', 'Use one union keyword');
  }
  node = tupleAsItems(node, path, ctx.report, '');

  const objectLike = isObjectSchema(node);
  const level = objectLike ? depth + 1 : depth;
  if (objectLike && level > OPENAI_STRICT_LIMITS.maxNestingDepth) {
    throw definitionError(
      ctx,
      path,
      `nests objects ${level} levels deep; strict mode allows at most ${OPENAI_STRICT_LIMITS.maxNestingDepth}`,
      'Flatten the parameters',
    );
  }

  const out: JsonSchema = {};
  let nullable = false;
  let droppedDefault: { value: unknown } | undefined;

  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case 'type':
        out.type = Array.isArray(value) ? [...(value as JsonSchemaType[])] : (value as JsonSchemaType);
        break;
      case 'nullable':
        if (value === true) nullable = true;
        ctx.report(path, value === true ? 'nullable: true became a null union for strict mode' : 'dropped nullable: false');
        break;
      case 'enum': {
        const values = value as unknown[];
        out.enum = [...values];
        ctx.enumValues += values.length;
        for (const v of values) if (typeof v === 'string') ctx.stringLength += v.length;
        break;
      }
      case 'const':
        out.const = cloneJson(value);
        if (typeof value === 'string') ctx.stringLength += value.length;
        break;
      case 'format':
        if (typeof value === 'string' && OPENAI_STRICT_FORMATS.has(value)) out.format = value;
        else {
          ctx.report(
            path,
            `dropped format "${String(value)}" (strict mode supports only ${[...OPENAI_STRICT_FORMATS].join(', ')})`,
          );
        }
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof value === 'number') out[key] = value;
        else ctx.report(path, `dropped the boolean (draft-04) ${key}; strict mode wants a number`);
        break;
      case 'default':
        droppedDefault = { value };
        break;
      case 'properties': {
        const required = new Set(node.required ?? []);
        const properties: Record<string, JsonSchema> = {};
        for (const [name, child] of Object.entries(value as Record<string, JsonSchemaDefinition>)) {
          const childPath = propertyPath(path, name);
          if (child === false) {
            // without it and with additionalProperties: false, the property still cannot be sent
            ctx.report(childPath, 'dropped the property: its schema is false (it accepts no value)');
            continue;
          }
          ctx.properties += 1;
          ctx.stringLength += name.length;
          let lowered = strictNode(child, childPath, ctx, level);
          if (!required.has(name)) {
            lowered = makeNullable(lowered);
            ctx.report(childPath, 'made required and nullable for strict mode');
          }
          properties[name] = lowered;
        }
        out.properties = properties;
        break;
      }
      case 'required':
      case 'additionalProperties':
        break; // set below, from the properties
      case 'unevaluatedProperties':
        // an object's unevaluatedProperties becomes its additionalProperties: false below
        if (!objectLike || node.additionalProperties !== undefined) ctx.report(path, 'dropped unevaluatedProperties (not supported in strict mode)');
        break;
      case 'items':
        if (isPlainObject(value)) out.items = strictNode(value as JsonSchema, itemsPath(path), ctx, level);
        else ctx.report(path, `dropped items: ${String(value)}`);
        break;
      case 'anyOf':
      case 'oneOf': {
        const branches: JsonSchema[] = [];
        (value as JsonSchemaDefinition[]).forEach((branch, i) => {
          // a branch that is false matches nothing: the union means the same without it
          if (branch === false) ctx.report(branchPath(path, key, i), `dropped the ${key} branch false (it matches nothing)`);
          else branches.push(strictNode(branch, branchPath(path, 'anyOf', i), ctx, level));
        });
        out.anyOf = branches;
        if (key === 'oneOf') ctx.report(path, 'oneOf became anyOf (strict mode does not support oneOf)');
        break;
      }
      case '$defs':
      case 'definitions': {
        const defs: Record<string, JsonSchema> = {};
        for (const [name, def] of Object.entries(value as Record<string, JsonSchemaDefinition>)) {
          ctx.stringLength += name.length;
          defs[name] = strictNode(def, propertyPath(path, `${key}.${name}`), ctx, 0);
        }
        out[key] = defs;
        break;
      }
      default:
        if (OPENAI_STRICT_KEYWORDS.has(key)) out[key] = cloneJson(value);
        else ctx.report(path, `dropped ${key} (not supported in strict mode)`);
    }
  }

  if (objectLike) closeObject(node, out, path, ctx);

  const isArray = Array.isArray(out.type) ? out.type.includes('array') : out.type === 'array';
  if (isArray && out.items === undefined) {
    throw definitionError(ctx, path, 'is an array without items', 'Declare the item type (items)');
  }
  if (out.type === undefined && out.anyOf === undefined && out.$ref === undefined) {
    const values = out.enum ?? (out.const !== undefined ? [out.const] : undefined);
    const inferred = values === undefined ? undefined : typeOfValues(values);
    if (inferred === undefined) {
      throw definitionError(ctx, path, 'has no type', 'Give it a type (or an enum of one JSON type)');
    }
    out.type = inferred;
    ctx.report(path, `added type: ${inferred}, inferred from the ${out.enum ? 'enum' : 'const'} values`);
  }

  if (droppedDefault !== undefined) {
    const value = JSON.stringify(droppedDefault.value);
    out.description = out.description === undefined ? `Default: ${value}.` : `${out.description} (default: ${value})`;
    ctx.report(path, 'dropped default (strict mode rejects it); noted it in the description');
  }
  return nullable ? makeNullable(out) : out;
}

/** Sets `properties`, `required` (every property) and `additionalProperties: false`. */
function closeObject(node: JsonSchema, out: JsonSchema, path: string, ctx: StrictContext): void {
  if (out.type === undefined) {
    out.type = 'object';
    ctx.report(path, 'added type: object');
  }
  const unevaluated = node.additionalProperties === undefined && node.unevaluatedProperties !== undefined;
  const extra: unknown = unevaluated ? node.unevaluatedProperties : node.additionalProperties;
  if (out.properties === undefined) {
    if (extra === true || isPlainObject(extra)) {
      throw definitionError(
        ctx,
        path,
        'is a map (an object with free-form keys), which strict mode cannot express',
        'Declare its properties, or pass the entries as an array of { key, value } objects',
      );
    }
    if (path !== '') {
      throw definitionError(
        ctx,
        path,
        'is a free-form object (no properties), which strict mode would turn into an always-empty object',
        'Declare its properties',
      );
    }
    out.properties = {};
  }
  out.required = Object.keys(out.properties);
  if (extra === undefined) ctx.report(path, 'added additionalProperties: false (strict mode)');
  else if (unevaluated) ctx.report(path, `unevaluatedProperties${extra === false ? ': false' : ''} became additionalProperties: false (strict mode)`);
  else if (extra !== false) {
    ctx.report(path, 'replaced additionalProperties with false (strict mode allows no extra properties)');
  }
  out.additionalProperties = false;
}

function isNullSchema(schema: JsonSchemaDefinition): boolean {
  if (typeof schema === 'boolean') return false;
  return schema.type === 'null' || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null');
}

/**
 * A schema that also accepts `null`: a `[T, 'null']` type union (with `null` added to an
 * enum), or `anyOf: [schema, { type: 'null' }]` for objects, references and untyped schemas.
 */
function makeNullable(schema: JsonSchema): JsonSchema {
  if (schema.anyOf !== undefined) {
    return schema.anyOf.some(isNullSchema) ? schema : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types === undefined || types.includes('object')) {
    if (types?.includes('null')) return schema;
    const { description, title, ...rest } = schema;
    const wrapper: JsonSchema = {};
    if (title !== undefined) wrapper.title = title;
    if (description !== undefined) wrapper.description = description;
    wrapper.anyOf = [rest, { type: 'null' }];
    return wrapper;
  }
  const out: JsonSchema = { ...schema, type: types.includes('null') ? [...types] : [...types, 'null'] };
  if (out.const !== undefined) {
    out.enum = [out.const, null];
    delete out.const;
  } else if (out.enum !== undefined && !out.enum.includes(null)) {
    out.enum = [...out.enum, null];
  }
  return out;
}
