import type { RE2JS } from 're2js';
import { ToolkitError } from '../errors';

/** The RFC 6570 operator of an expression: `''` (simple), `+`, `#`, `.`, `/`, `;`, `?`, `&`. */
export type UriTemplateOperator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** One variable of a URI template. */
export interface UriTemplateVariable {
  /** Its name, as written (`id`, `user.name`). */
  readonly name: string;
  /** The operator of its expression. */
  readonly operator: UriTemplateOperator;
  /** `{list*}`: the value is a list (a `string[]`). */
  readonly explode: boolean;
  /** `{name:3}`: the longest value it takes. */
  readonly maxLength?: number;
}

/** The values a URI gave the variables of a template (a list for an exploded variable). */
export type UriTemplateValues = Record<string, string | string[]>;

/** The longest template text accepted. */
const MAX_TEMPLATE_CHARS = 8192;
const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
/** The separator of an exploded list's items, by operator. */
const EXPLODE_SEPARATOR: Partial<Record<UriTemplateOperator, string>> = { '': ',', '+': ',', '#': ',', '.': '.', '/': '/' };

/** C0 and C1 control characters and DEL: refused in every decoded value. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** What a variable's decoded value may hold, by operator: one path segment, a relative path, or free text. */
const VALUE_KIND: Record<UriTemplateOperator, 'segment' | 'path' | 'text'> = { '': 'segment', '/': 'segment', '.': 'segment', '+': 'path', '#': 'path', ';': 'text', '?': 'text', '&': 'text' };

/**
 * True when a decoded value may reach a resource method: never a control character; a segment
 * (`{var}`, `{/var}`, `{.var}`, each item of an exploded one) never `/`, `\`, `.` or `..`; a
 * reserved or fragment value (`{+var}`, `{#var}`) may span segments but has no `.` or `..` segment.
 */
function acceptable(value: string, operator: UriTemplateOperator): boolean {
  if (CONTROL.test(value)) return false;
  switch (VALUE_KIND[operator]) {
    case 'segment':
      return !/[/\\]/.test(value) && value !== '.' && value !== '..';
    case 'path':
      return !value.split(/[/\\]/).some((segment) => segment === '.' || segment === '..');
    default:
      return true;
  }
}

/** re2js, loaded with the first template matched. */
let engine: typeof import('re2js') | undefined;

/** Characters a value of this operator cannot hold raw (they end it). */
function valueClass(operator: UriTemplateOperator, explode: boolean): string {
  switch (operator) {
    case '+':
      return explode ? '[^?#]' : '[^?#,]';
    case '#':
      return explode ? '.' : '[^,]';
    case '.':
      return '[^/?#.,]';
    case ';':
      return '[^/?#;,]';
    case '?':
    case '&':
      return '[^&#]';
    default:
      return explode ? '[^/?#]' : '[^/?#,]';
  }
}

/**
 * An RFC 6570 URI template (`docs://pages/{slug}`, `files:///{+path}`, `api://items{?page,size}`),
 * parsed once and matched against concrete URIs in linear time (RE2 semantics): a hostile URI
 * cannot make matching backtrack. Values come back percent-decoded; a URI whose values do not
 * decode does not match, nor one whose values could walk a path: a one-segment variable (`{var}`,
 * `{/var}`, `{.var}`, each item of `{var*}` / `{/var*}`) never holds `/` or `\` (not even
 * as `%2F`/`%5C`) and is never `.` or `..`; `{+var}` and `{#var}` may span segments but never
 * have a `.` or `..` segment; no value holds a control character (NUL included). Query and
 * path-parameter values (`{?q}`, `{&q}`, `{;p}`) are free text otherwise. `{?…}` and `{&…}` variables may be absent (and come in template order);
 * the others match a non-empty value. Not supported: exploded `;`, `?` and `&` variables
 * (associative values).
 *
 * @example
 * const template = parseUriTemplate('docs://pages/{slug}{?lang}', 'DocsService.page');
 * template.match('docs://pages/intro?lang=fr'); // { slug: 'intro', lang: 'fr' }
 * template.match('docs://other/intro');         // undefined
 */
export class UriTemplate {
  /** The variables, in template order. */
  readonly variables: readonly UriTemplateVariable[];
  private readonly source: string;
  private compiled: RE2JS | undefined = undefined;

  /** @internal Use {@link parseUriTemplate}. */
  constructor(
    readonly template: string,
    variables: readonly UriTemplateVariable[],
    source: string,
  ) {
    this.variables = Object.freeze(variables);
    this.source = source;
  }

  /** The variables' values in `uri`, or `undefined` when `uri` is not one of the template's URIs. */
  match(uri: string): UriTemplateValues | undefined {
    if (this.compiled === undefined) {
      const { RE2JS } = (engine ??= require('re2js') as typeof import('re2js'));
      this.compiled = RE2JS.compile(this.source);
    }
    const matcher = this.compiled.matcher(uri);
    if (!matcher.matches()) return undefined;
    const values: UriTemplateValues = {};
    for (let i = 0; i < this.variables.length; i++) {
      const variable = this.variables[i];
      const raw = matcher.group(i + 1);
      if (raw === null) continue;
      const value = decodeValue(variable, raw);
      if (value === undefined) return undefined;
      values[variable.name] = value;
    }
    return values;
  }
}

function decodeValue(variable: UriTemplateVariable, raw: string): string | string[] | undefined {
  try {
    if (variable.explode) {
      const separator = EXPLODE_SEPARATOR[variable.operator]!;
      const items = raw.split(separator);
      if (variable.operator === '/' || variable.operator === '.') items.shift(); // the text starts with the separator
      const decoded = items.map((item) => decodeURIComponent(item));
      return decoded.every((item) => acceptable(item, variable.operator)) ? decoded : undefined;
    }
    const value = decodeURIComponent(raw);
    if (!acceptable(value, variable.operator)) return undefined;
    return variable.maxLength !== undefined && value.length > variable.maxLength ? undefined : value;
  } catch {
    return undefined; // a malformed %-escape: no URI of the template
  }
}

/** The pattern of one variable of an expression (`first`: the expression's first variable). */
function variablePattern(variable: UriTemplateVariable, first: boolean, quote: (text: string) => string): string {
  const { operator, explode, name } = variable;
  const value = `${valueClass(operator, explode)}+`;
  switch (operator) {
    case '?':
    case '&':
      return `(?:[?&]${quote(name)}=(${valueClass(operator, false)}*))?`;
    case ';':
      return `(?:;${quote(name)}(?:=(${valueClass(operator, false)}*))?)?`;
    case '.':
    case '/': {
      const separator = quote(operator);
      return explode ? `((?:${separator}${valueClass(operator, true)}+)+)` : `(?:${separator}(${value}))?`;
    }
    case '#':
      return first ? `(?:#(${value}))?` : `(?:,(${value}))?`;
    default:
      return first ? `(${value})` : `(?:,(${value}))?`;
  }
}

/**
 * Parses an RFC 6570 template and prepares its matcher.
 *
 * @throws ToolkitError `INVALID_DEFINITION` naming `owner` and what is wrong: unbalanced braces, a
 *   reserved operator, an invalid or repeated variable name, an exploded `;`/`?`/`&` variable, a
 *   `{?…}`/`{&…}` expression followed by more template.
 */
export function parseUriTemplate(template: string, owner: string): UriTemplate {
  const fail = (problem: string): never => {
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: URI template '${template.slice(0, 200)}' ${problem}.`);
  };
  if (template.length === 0 || template.length > MAX_TEMPLATE_CHARS) fail(`must have 1 to ${MAX_TEMPLATE_CHARS} characters`);
  const { RE2JS } = (engine ??= require('re2js') as typeof import('re2js'));
  const quote = (text: string): string => RE2JS.quote(text);
  const variables: UriTemplateVariable[] = [];
  let source = '';
  let queryStarted = false;
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const close = template.indexOf('}', at);
    if (close >= 0 && (open < 0 || close < open)) fail(`has a '}' without its '{' at position ${close}`);
    const literal = template.slice(at, open < 0 ? template.length : open);
    if (literal) {
      if (queryStarted) fail('continues after a {?…} or {&…} expression: put query expressions last');
      source += quote(literal);
    }
    if (open < 0) break;
    if (close < 0) fail(`has an unclosed '{' at position ${open}`);
    const expression = template.slice(open + 1, close);
    if (expression.includes('{')) fail(`has a '{' inside an expression at position ${open}`);
    const operator = (OPERATORS.has(expression[0]) ? expression[0] : '') as UriTemplateOperator;
    if (/^[=,!@|]/.test(expression)) fail(`uses the reserved operator '${expression[0]}'`);
    if (operator === '?' || operator === '&') queryStarted = true;
    else if (queryStarted) fail('continues after a {?…} or {&…} expression: put query expressions last');
    const specs = expression.slice(operator.length).split(',');
    specs.forEach((spec, index) => {
      const parsed = /^(.*?)(\*|:([1-9][0-9]{0,3}))?$/.exec(spec)!;
      const name = parsed[1];
      if (!VARNAME.test(name)) fail(`has an invalid variable name '${name.slice(0, 100)}' (letters, digits, '_', '.', %-escapes)`);
      if (variables.some((v) => v.name === name)) fail(`names the variable '${name}' twice`);
      const explode = parsed[2] === '*';
      if (explode && (operator === ';' || operator === '?' || operator === '&')) fail(`explodes '${name}' with '${operator}', which is not supported`);
      const variable: UriTemplateVariable = { name, operator, explode, ...(parsed[3] !== undefined ? { maxLength: Number(parsed[3]) } : {}) };
      variables.push(Object.freeze(variable));
      source += variablePattern(variable, index === 0, quote);
    });
    at = close + 1;
  }
  return new UriTemplate(template, variables, source);
}
