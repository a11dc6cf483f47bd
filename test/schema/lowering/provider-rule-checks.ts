/**
 * The providers' published rules, encoded independently of the implementation (the lists are
 * written out again here on purpose), as checkers returning the list of violations.
 */

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Visits every subschema with its path. */
export function walkSchema(schema: unknown, visit: (node: Node, path: string) => void, path = ''): void {
  if (!isNode(schema)) return;
  visit(schema, path);
  const props = schema.properties;
  if (isNode(props)) for (const [k, v] of Object.entries(props)) walkSchema(v, visit, path ? `${path}.${k}` : k);
  if (isNode(schema.items)) walkSchema(schema.items, visit, `${path}[]`);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((b, i) => walkSchema(b, visit, `${path}.${key}[${i}]`));
  }
  for (const key of ['$defs', 'definitions']) {
    const defs = schema[key];
    if (isNode(defs)) for (const [k, v] of Object.entries(defs)) walkSchema(v, visit, `${path}.${key}.${k}`);
  }
}

export const NAME_PATTERNS = {
  openai: /^[a-zA-Z0-9_-]{1,64}$/,
  'openai-responses': /^[a-zA-Z0-9_-]{1,64}$/,
  anthropic: /^[a-zA-Z0-9_-]{1,128}$/,
  gemini: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
  mcp: /^[a-zA-Z0-9_.-]{1,128}$/,
} as const;

// OpenAI Structured Outputs guide, "Supported schemas" (strict: true).
const STRICT_SUPPORTED = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'const',
  '$ref', '$defs', 'definitions', 'description', 'title',
  'pattern', 'format',
  'multipleOf', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minItems', 'maxItems',
]);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** OpenAI strict mode: every object closed and fully required, no `default`, supported keywords only. */
export function checkOpenAIStrict(parameters: unknown): string[] {
  const errors: string[] = [];
  if (!isNode(parameters) || parameters.type !== 'object') errors.push('root must be { type: "object" }');
  if (isNode(parameters) && parameters.anyOf !== undefined) errors.push('root must not be anyOf');
  let depthMax = 0;
  walkSchema(parameters, (node, path) => {
    for (const key of Object.keys(node)) {
      if (!STRICT_SUPPORTED.has(key)) errors.push(`${path}: unsupported keyword ${key}`);
    }
    if ('default' in node) errors.push(`${path}: default`);
    if (typeof node.format === 'string' && !STRICT_FORMATS.has(node.format)) errors.push(`${path}: format ${node.format}`);
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    if (types.length === 0 && node.anyOf === undefined && node.$ref === undefined) errors.push(`${path}: no type`);
    if (types.includes('object') || isNode(node.properties)) {
      if (node.additionalProperties !== false) errors.push(`${path}: additionalProperties must be false`);
      const keys = Object.keys(isNode(node.properties) ? node.properties : {}).sort();
      const required = Array.isArray(node.required) ? [...(node.required as string[])].sort() : [];
      if (JSON.stringify(keys) !== JSON.stringify(required)) errors.push(`${path}: every property must be required`);
      depthMax = Math.max(depthMax, path === '' ? 1 : path.split(/\.|\[\]/).filter(Boolean).length + 1);
    }
    if (types.includes('array') && !isNode(node.items)) errors.push(`${path}: array without items`);
    if (Array.isArray(node.enum) && types.includes('null') && !node.enum.includes(null)) {
      errors.push(`${path}: nullable enum must list null`);
    }
  });
  return errors;
}

// Gemini API reference, `Schema` object.
const GEMINI_ALLOWED = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'properties', 'required',
  'propertyOrdering', 'minProperties', 'maxProperties', 'items', 'minItems', 'maxItems',
  'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'anyOf', 'default', 'example',
]);
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
// "for NUMBER type: float, double; for INTEGER type: int32, int64; for STRING type: enum, date-time"
const GEMINI_FORMATS: Record<string, readonly string[]> = { string: ['enum', 'date-time'], number: ['float', 'double'], integer: ['int32', 'int64'] };

/** Gemini: only the Schema keywords, single types, string enums, arrays with items, objects with properties. */
export function checkGemini(parameters: unknown): string[] {
  const errors: string[] = [];
  if (parameters === undefined) return errors; // no parameters: allowed
  if (!isNode(parameters) || parameters.type !== 'object') errors.push('root must be { type: "object" }');
  walkSchema(parameters, (node, path) => {
    for (const key of Object.keys(node)) if (!GEMINI_ALLOWED.has(key)) errors.push(`${path}: keyword ${key}`);
    if (node.type !== undefined && (typeof node.type !== 'string' || !GEMINI_TYPES.has(node.type))) {
      errors.push(`${path}: type must be one type name`);
    }
    if (node.type === undefined && node.anyOf === undefined) errors.push(`${path}: no type`);
    if (node.type === 'array' && !isNode(node.items)) errors.push(`${path}: array without items`);
    if (node.type === 'object') {
      const keys = Object.keys(isNode(node.properties) ? node.properties : {});
      if (keys.length === 0) errors.push(`${path}: object without properties`);
      for (const r of (node.required as string[] | undefined) ?? []) {
        if (!keys.includes(r)) errors.push(`${path}: required ${r} is not a property`);
      }
    }
    if (Array.isArray(node.enum) && !node.enum.every((v) => typeof v === 'string')) errors.push(`${path}: enum of non-strings`);
    if (node.enum !== undefined && node.type !== 'string') errors.push(`${path}: enum on type ${String(node.type)}`);
    if (node.format !== undefined && !(GEMINI_FORMATS[String(node.type)] ?? []).includes(String(node.format))) {
      errors.push(`${path}: format ${String(node.format)} on type ${String(node.type)}`);
    }
  });
  return errors;
}

/** Anthropic and MCP: an object root. */
export function checkObjectRoot(schema: unknown): string[] {
  return isNode(schema) && schema.type === 'object' ? [] : ['root must be { type: "object" }'];
}
