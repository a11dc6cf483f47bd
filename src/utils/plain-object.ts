/**
 * @internal True for a non-null, non-array object (a JSON object, a record of arguments).
 *
 * @example
 * isPlainObject({ city: 'Paris' }); // true
 * isPlainObject([1]);               // false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
