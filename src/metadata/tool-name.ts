import { ToolkitError } from '../errors';

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** @internal `getWeather` → `get_weather`: the default tool name of a method. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .toLowerCase();
}

/**
 * Throws unless `name` is accepted by every provider.
 *
 * @internal
 * @throws ToolkitError `INVALID_NAME` naming `owner`, the name and the pattern.
 */
export function assertToolName(name: string, owner: string): void {
  if (!NAME_PATTERN.test(name)) {
    throw new ToolkitError(
      'INVALID_NAME',
      `${owner}: tool name '${name}' is not valid for every provider; ` +
        `use 1-64 letters, digits, '_' or '-' (pattern ^[a-zA-Z0-9_-]{1,64}$).`,
      { tool: name },
    );
  }
}
