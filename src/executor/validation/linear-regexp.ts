import type { RE2JS } from 're2js';

/** What Ajv needs of a compiled pattern. */
interface PatternTester {
  test(text: string): boolean;
}

/** Patterns already reported as running on the backtracking engine (one warning each per process). */
const warned = new Set<string>();

/** re2js, loaded with the first `pattern` (most tools have none). */
let engine: typeof import('re2js') | undefined;

function re2js(): typeof import('re2js') {
  return (engine ??= require('re2js') as typeof import('re2js'));
}

/**
 * Compiles a JSON Schema `pattern` for the linear-time engine (RE2JS, a pure-JS port of RE2),
 * or throws `RE2JSException` when the pattern uses what RE2 lacks: lookaround, backreferences.
 */
function compileLinear(pattern: string): RE2JS {
  const { RE2JS } = re2js();
  return RE2JS.compile(RE2JS.translateRegExp(pattern));
}

/**
 * @internal Why the linear-time engine cannot run `pattern` (lookaround, backreferences, a syntax
 * error), or `undefined` when it can. Imported (untrusted) schemas are refused on this verdict.
 *
 * @example
 * linearPatternProblem('^[a-z]+$');   // undefined
 * linearPatternProblem('(?=a)b');     // 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'
 */
export function linearPatternProblem(pattern: string): string | undefined {
  try {
    compileLinear(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * @internal Ajv's `code.regExp` engine for every toolkit: JSON Schema `pattern`s and
 * `patternProperties` run in time linear in the input (RE2 semantics), so a pattern such as
 * `^(a|a)+$` answers at once on any string. A developer's pattern that RE2 cannot express
 * (lookaround, backreferences) runs on JavaScript's own engine, with one warning per pattern:
 * such a pattern can backtrack. Imported MCP schemas never get there (`importMcpTools` skips them).
 *
 * @example
 * new Ajv({ code: { regExp: linearRegExp } });
 */
export const linearRegExp = Object.assign(
  (pattern: string, flags: string): PatternTester => {
    try {
      return compileLinear(pattern);
    } catch (error) {
      if (!(error instanceof re2js().RE2JSException)) throw error;
      if (!warned.has(pattern)) {
        warned.add(pattern);
        process.emitWarning(
          `JSON Schema pattern ${JSON.stringify(pattern.slice(0, 200))} uses syntax the linear-time engine lacks (${error.message}); ` +
            'it runs on the backtracking JavaScript engine, where hostile input can take exponential time. Prefer a pattern without lookaround or backreferences.',
          { code: 'TOOLWRIGHT_BACKTRACKING_PATTERN' },
        );
      }
      return new RegExp(pattern, flags);
    }
  },
  // read only by Ajv's standalone code generation, which toolwright does not use
  { code: 'toolwright.linearRegExp' },
);
