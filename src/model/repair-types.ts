/**
 * Whether the toolkit repairs a model's malformed or mistyped arguments before validation
 * refuses them: `'safe'` applies only repairs that cannot change what the model meant (see the
 * README's "Argument repair"); `'off'` (the default) refuses them as `MALFORMED_ARGUMENTS` or
 * `INVALID_ARGUMENTS`.
 */
export type RepairMode = 'safe' | 'off';

/**
 * What one repair did:
 * - `json_syntax`: the argument text was not JSON (trailing commas, single quotes, unquoted
 *   keys, Python literals, comments, a markdown fence, a missing final `}`) and was rewritten;
 * - `number_from_string` / `boolean_from_string`: `"42"` → `42`, `"true"` → `true` where the
 *   schema wants a number (integer) or a boolean and the text is exactly one in JSON syntax;
 * - `json_from_string`: a JSON object or array written inside a string, where the schema wants one;
 * - `wrapped_in_array`: a single value where the schema wants an array of such values;
 * - `null_dropped`: a `null` for an optional property that does not accept `null`.
 */
export type RepairKind = 'json_syntax' | 'number_from_string' | 'boolean_from_string' | 'json_from_string' | 'wrapped_in_array' | 'null_dropped';

/** One change a repair made to a call's arguments. */
export interface RepairChange {
  /**
   * Where, as a JSON Pointer into the arguments (`/filters/0/limit`); `''` for the whole
   * argument text (a `json_syntax` repair).
   */
  readonly path: string;
  /** The value the model sent there (for `json_syntax`: its text, at most 4096 characters). */
  readonly before: unknown;
  /** The value the tool gets (for `json_syntax`: the repaired JSON text, at most 4096 characters; `undefined` when dropped). */
  readonly after: unknown;
  /** What kind of repair it is. */
  readonly kind: RepairKind;
}
