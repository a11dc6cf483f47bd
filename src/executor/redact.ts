/** The text that replaces a preset value wherever it would leak. */
export const REDACTED = '[REDACTED]';

/** Replaces every occurrence of each secret in `text`. */
export function redactText(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) if (text.includes(secret)) text = text.split(secret).join(REDACTED);
  return text;
}

/**
 * A copy of `value` with every secret replaced, in strings at any depth of plain objects and
 * arrays; Errors become new Errors (same name, redacted message, no stack of the original).
 * Returns `value` itself when nothing had to change. Other objects (class instances, Maps…) are
 * kept only when their JSON text holds no secret; otherwise they become `'[REDACTED]'`.
 */
export function redactValue(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 32) return REDACTED;
  if (value instanceof Error) {
    const message = redactText(value.message, secrets);
    const copy = new Error(message);
    copy.name = value.name;
    return copy;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const safe = redactValue(item, secrets, depth + 1);
      if (safe !== item) (copy ??= value.slice())[i] = safe;
    }
    return copy ?? value;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return jsonHolds(value, secrets) ? REDACTED : value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const safe = redactValue(item, secrets, depth + 1);
    if (safe !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = safe;
  }
  return copy ?? value;
}

function jsonHolds(value: object, secrets: readonly string[]): boolean {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return true; // cannot be inspected: assume the worst
  }
  return text !== undefined && secrets.some((s) => text.includes(s));
}
