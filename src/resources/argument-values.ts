import type { ReadonlyJsonSchema } from '../model/json-schema';
import { quoteInput } from '../utils/quote-input';
import { ToolkitError } from '../errors';
import { describeAjvErrors, ProblemList } from '../executor/validation/validation';
import type { CatalogEntry } from './catalog-entry';
import { describeMember, type MemberRunParts } from './member-run';

/** The JSON type a scalar schema (or an enum of one type) wants. */
function scalarType(schema: ReadonlyJsonSchema): unknown {
  if (schema.type !== undefined) return schema.type;
  const kinds = new Set((schema.enum ?? []).map((v) => typeof v));
  return kinds.size === 1 ? [...kinds][0] : 'string';
}

/**
 * Text as the type `schema` wants: a number for `number`/`integer`, a boolean for `true`/`false`;
 * text that does not convert stays text, so that validation says what was expected.
 */
function fromText(text: string, schema: ReadonlyJsonSchema): unknown {
  switch (scalarType(schema)) {
    case 'number':
    case 'integer': {
      const trimmed = text.trim();
      const number = trimmed === '' ? NaN : Number(trimmed);
      return Number.isFinite(number) ? number : text;
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

/** Validated date-time text (or a list of it) as `Date`s. */
function toDates(value: unknown): unknown {
  return Array.isArray(value) ? value.map((v) => new Date(v as string)) : new Date(value as string);
}

/**
 * @internal The values a method gets for `raw` (the client's text: template variables or prompt
 * arguments), converted to each parameter's type and validated by its schema, dates as `Date`s.
 * `strict`: a name that is no visible argument is a problem (prompts; a template's variables
 * without a parameter are simply not passed on).
 *
 * @throws ToolkitError `INVALID_ARGUMENTS` listing each problem (bounded), presets named as unknown.
 */
export function argumentValues(parts: MemberRunParts, entry: CatalogEntry, raw: Readonly<Record<string, unknown>>, strict: boolean): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const problems = new ProblemList();
  for (const [name, value] of Object.entries(raw)) {
    const param = entry.args.find((p) => p.name === name);
    if (param === undefined) {
      if (strict) problems.add(`${quoteInput(name, 120)}: is not an argument of ${describeMember(entry)} (remove it)`);
      continue;
    }
    if (typeof value === 'string') values[name] = param.schema.type === 'array' ? [fromText(value, param.schema.items as ReadonlyJsonSchema)] : fromText(value, param.schema);
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) values[name] = value.map((v: string) => fromText(v, param.schema.items as ReadonlyJsonSchema));
    else problems.add(`${quoteInput(name, 120)}: must be text`);
  }
  const validate = (entry.validator ??= parts.validators.compile(entry.schema));
  if (!validate(values)) describeAjvErrors(validate.errors ?? [], values, problems);
  if (!problems.empty) {
    throw new ToolkitError('INVALID_ARGUMENTS', `Invalid arguments for ${describeMember(entry)}:\n${problems.toText()}`);
  }
  for (const param of entry.args) if (param.date && values[param.name] !== undefined) values[param.name] = toDates(values[param.name]);
  return values;
}
