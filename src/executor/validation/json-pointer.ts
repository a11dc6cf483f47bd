/**
 * @internal JSON Pointers (RFC 6901) into a call's arguments: where validation problems and
 * repairs point.
 */

/** @internal `base` extended by one segment, escaped (`~` → `~0`, `/` → `~1`). */
export function pointerTo(base: string, key: string | number): string {
  return `${base}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** The unescaped segments of a JSON Pointer (`/a~1b/0` → `['a/b', '0']`); none for the root (`''`). */
function pointerSegments(pointer: string): string[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** @internal A JSON Pointer as the path a problem line names (`/a/0/b` → `a[0].b`). */
export function jsonPointerToPath(pointer: string): string {
  return pointerSegments(pointer).reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/** @internal The JSON type of a value, as a problem line names it. */
export function typeOfJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** @internal The value at a JSON Pointer inside `root` (own properties only); `undefined` when there is none. */
export function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const key of pointerSegments(pointer)) {
    if (typeof current !== 'object' || current === null || !Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
