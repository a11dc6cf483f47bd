import type { ToolkitErrorCode } from './error-codes';

/** Options of a {@link ToolkitError}. */
export interface ToolkitErrorOptions {
  /** The error this one explains. */
  cause?: unknown;
  /** The tool the error is about, when there is one. */
  tool?: string | undefined;
}

const BRAND = Symbol.for('toolwright.ToolkitError');

/**
 * The one error class of toolwright. `code` says what went wrong; the message names the
 * class member, the parameter and the fix.
 *
 * @example
 * try { toolkit.registerTool(MyService); }
 * catch (e) { if (ToolkitError.is(e, 'MISSING_NAME')) console.error(e.message); }
 */
export class ToolkitError extends Error {
  /** What went wrong, as a stable string. */
  readonly code: ToolkitErrorCode;
  /** The tool the error is about, when there is one. */
  readonly tool?: string;
  /** @internal */
  readonly [BRAND] = true;

  constructor(code: ToolkitErrorCode, message: string, options: ToolkitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolkitError';
    this.code = code;
    if (options.tool !== undefined) this.tool = options.tool;
  }

  /** True when `value` is a ToolkitError (from any copy of toolwright), optionally of `code`. */
  static is(value: unknown, code?: ToolkitErrorCode): value is ToolkitError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[BRAND] === true &&
      (code === undefined || (value as ToolkitError).code === code)
    );
  }
}

/**
 * Turns anything thrown (an Error, a string, `undefined`, an object) into a readable message.
 * The JSON of a non-Error value is cut at 500 characters; `scrub` (a redaction) is applied to the
 * text before the cut, so the cut never leaves part of a secret behind.
 *
 * @example
 * describeThrown({ status: 401 }); // 'a non-Error value: {"status":401}'
 * describeThrown(error, createRedactor({ secrets: [apiKey] }).text);
 */
export function describeThrown(value: unknown, scrub?: (text: string) => string): string {
  const clean = scrub ?? ((text: string) => text);
  if (value instanceof Error) return clean(value.message || value.name);
  if (typeof value === 'string') return clean(value);
  if (value === undefined || value === null) return `a non-Error value (${String(value)})`;
  try {
    const raw = JSON.stringify(value);
    if (raw !== undefined) {
      const json = clean(raw);
      return `a non-Error value: ${json.length > 500 ? `${json.slice(0, 500)}…` : json}`;
    }
  } catch {
    // fall through: circular or hostile objects are described by type
  }
  return `a non-Error value of type ${typeof value}`;
}
