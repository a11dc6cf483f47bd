import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { JsonSchema, JsonSchemaType } from '../model/json-schema';
import type { Constructor, EnumLike } from '../metadata/records';
import { classTransformerStorage, classValidator, validationMetadataExists } from './dto-libraries';

/** Classes that reflection reports for built-in types; none of them is a DTO or a context. */
export const BUILTIN_TYPES: ReadonlySet<unknown> = new Set<unknown>([
  String, Number, Boolean, Object, Array, Date, Function, Promise, Map, Set, Symbol, BigInt, RegExp, Error,
]);

function isReverseMapping(values: Record<string, string | number>, key: string): boolean {
  const value = values[key];
  return typeof value === 'string' && values[value] === Number(key);
}

/** The JSON Schema of an enum object or a list of allowed values. */
export function enumSchema(values: EnumLike): JsonSchema {
  const list = Array.isArray(values)
    ? [...values]
    : Object.keys(values)
        // a numeric enum also maps each value back to its key (`Level[1] === 'Low'`, `E[-1] === 'A'`)
        .filter((key) => !isReverseMapping(values as Record<string, string | number>, key))
        .map((key) => (values as Record<string, string | number>)[key]);
  const types = new Set(list.map((v) => typeof v));
  const schema: JsonSchema = { enum: list };
  if (types.size === 1) {
    const only = [...types][0];
    schema.type = only === 'number' ? 'number' : only === 'boolean' ? 'boolean' : 'string';
  }
  return schema;
}

/** The schema of a primitive or built-in reflected type, or `undefined` when it is not one. */
export function builtinSchema(type: unknown, integer = false): JsonSchema | undefined {
  if (type === String) return { type: 'string' };
  if (type === Number) return { type: integer ? 'integer' : 'number' };
  if (type === Boolean) return { type: 'boolean' };
  if (type === Date) return { type: 'string', format: 'date-time' };
  return undefined;
}

/** True when `type` is a class that is not a built-in. */
export function isUserClass(type: unknown): type is Constructor {
  return typeof type === 'function' && !BUILTIN_TYPES.has(type);
}

/**
 * True when `type` carries class-validator constraints (so it can be a DTO). Loads class-validator
 * only when some class in the process has its decorators.
 */
export function hasValidationMetadata(type: Constructor): boolean {
  return validationMetadataExists() && validationMetadatas(type).length > 0;
}

function validationMetadatas(type: Constructor): ValidationMetadata[] {
  return classValidator().getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
}

const nestingGuard = new Set<Constructor>();

/**
 * The nested object schema of a class-validator DTO, with its constraints (`@IsEmail`, `@Min`,
 * `@Length`, `@IsIn`, `@IsOptional`, `@ValidateNested` + `@Type`…). Recursion through a class
 * that contains itself stops with a permissive object schema.
 */
export function dtoSchema(type: Constructor): JsonSchema {
  if (nestingGuard.has(type)) return { type: 'object' };
  nestingGuard.add(type);
  try {
    const { ValidationTypes } = classValidator();
    const byProperty = new Map<string, ValidationMetadata[]>();
    for (const meta of validationMetadatas(type)) {
      let list = byProperty.get(meta.propertyName);
      if (!list) byProperty.set(meta.propertyName, (list = []));
      list.push(meta);
    }
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [property, metas] of byProperty) {
      // @IsOptional() and @ValidateIf(…) both let class-validator accept a missing value
      const optional = metas.some((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
      properties[property] = propertySchema(type, property, metas);
      if (!optional) required.push(property);
    }
    const schema: JsonSchema = { type: 'object', properties, additionalProperties: false };
    if (required.length > 0) schema.required = required;
    return schema;
  } finally {
    nestingGuard.delete(type);
  }
}

function propertySchema(owner: Constructor, property: string, metas: ValidationMetadata[]): JsonSchema {
  const designType: unknown = Reflect.getMetadata('design:type', owner.prototype as object, property);
  const nested = classTransformerStorage().defaultMetadataStorage.findTypeMetadata(owner, property)?.typeFunction() as unknown;
  const isArray = designType === Array || metas.some((m) => m.name === 'isArray');
  const element: JsonSchema = {};
  const self: JsonSchema = {};

  const base = isUserClass(nested) ? dtoSchema(nested) : builtinSchema(isArray ? nested : designType);
  if (isArray) {
    self.type = 'array';
    if (base) Object.assign(element, base);
  } else if (base) {
    Object.assign(self, base);
  } else if (isUserClass(designType) && hasValidationMetadata(designType)) {
    Object.assign(self, dtoSchema(designType));
  }

  for (const meta of metas) {
    const target = meta.each && isArray ? element : self;
    applyConstraint(target, meta);
  }
  if (isArray) self.items = element;
  return self;
}

/**
 * class-validator checks whose JSON Schema format accepts the same strings. `@IsUrl` (which takes
 * `example.com` without a scheme) and `@IsDateString` have no such format: they become plain
 * strings and class-validator alone decides (in the same round as the schema). `@IsDateString`
 * takes `2024-01-01`, `2024-W01`, `2024-001`, `20240101T100000Z`, times without seconds or zone,
 * which `format: date-time` refuses, and refuses `…t10:00:00z` and leap seconds, which it takes:
 * neither is a subset of the other.
 */
const FORMATS: Record<string, string> = {
  isEmail: 'email',
  isUuid: 'uuid',
  isFqdn: 'hostname',
};

/** class-validator checks that only say "a string". */
const STRING_CHECKS = new Set(['isUrl', 'isDateString', 'isISO8601']);

/** Validators that only fix the JSON type. */
const TYPES: Record<string, JsonSchemaType> = {
  isString: 'string',
  isNumber: 'number',
  isInt: 'integer',
  isBoolean: 'boolean',
  isArray: 'array',
  isObject: 'object',
};

/** Validators whose first constraint is the value of one numeric keyword. */
const BOUNDS: Record<string, 'minimum' | 'maximum' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'multipleOf'> = {
  min: 'minimum',
  max: 'maximum',
  minLength: 'minLength',
  maxLength: 'maxLength',
  arrayMinSize: 'minItems',
  arrayMaxSize: 'maxItems',
  isDivisibleBy: 'multipleOf',
};

function applyConstraint(schema: JsonSchema, meta: ValidationMetadata): void {
  const c = meta.constraints ?? [];
  const name = meta.name ?? '';
  if (Object.prototype.hasOwnProperty.call(TYPES, name)) {
    schema.type = TYPES[name];
    return;
  }
  if (STRING_CHECKS.has(name)) {
    schema.type = 'string';
    return;
  }
  if (Object.prototype.hasOwnProperty.call(BOUNDS, name)) {
    schema[BOUNDS[name]] = c[0] as number;
    return;
  }
  switch (meta.name) {
    case 'isDate':
      schema.type = 'string';
      schema.format = 'date-time';
      break;
    case 'isPositive':
      schema.exclusiveMinimum = 0;
      break;
    case 'isNegative':
      schema.exclusiveMaximum = 0;
      break;
    case 'isLength':
      schema.minLength = c[0] as number;
      if (typeof c[1] === 'number') schema.maxLength = c[1];
      break;
    case 'isNotEmpty':
      if (schema.type === 'string' || schema.type === undefined) schema.minLength = Math.max(1, schema.minLength ?? 0);
      break;
    case 'arrayNotEmpty':
      schema.minItems = Math.max(1, schema.minItems ?? 0);
      break;
    case 'arrayUnique':
      schema.uniqueItems = true;
      break;
    case 'isIn':
      Object.assign(schema, enumSchema(c[0] as EnumLike));
      break;
    case 'isEnum':
      Object.assign(schema, enumSchema(c[0] as EnumLike));
      break;
    case 'equals':
      schema.const = c[0];
      break;
    case 'isNotIn':
      schema.not = { enum: [...(c[0] as unknown[])] };
      break;
    case 'isLatitude':
      schema.minimum = -90;
      schema.maximum = 90;
      break;
    case 'isLongitude':
      schema.minimum = -180;
      schema.maximum = 180;
      break;
    case 'matches': {
      // JSON Schema patterns have no flags: a RegExp with i/m/s/y (or string modifiers) cannot be
      // expressed, so the schema leaves it to class-validator rather than reject valid values
      const [pattern, modifiers] = c[0] instanceof RegExp ? [c[0].source, c[0].flags] : [c[0], c[1]];
      if (typeof pattern === 'string' && !/[imsy]/.test(typeof modifiers === 'string' ? modifiers : '')) schema.pattern = pattern;
      break;
    }
    default:
      if (meta.name !== undefined && FORMATS[meta.name]) {
        schema.type = 'string';
        schema.format = FORMATS[meta.name];
      }
  }
}
