import { ToolkitError } from '../../errors';

/** @internal `value` when it is a whole number >= 1 or `Infinity`; throws `INVALID_OPTIONS` naming the MCP option otherwise. */
export function checkLimit(name: string, value: number): number {
  if (value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value >= 1)) return value;
  throw new ToolkitError('INVALID_OPTIONS', `MCP option ${name} must be a whole number >= 1 (or Infinity for no limit), got ${String(value)}.`);
}
