/** At most this many differences are listed; the others are counted. */
const MAX_LISTED = 5;
/** The longest a value is shown in a difference. */
const MAX_VALUE_CHARS = 120;

/** A JSON value as a difference shows it: JSON text cut to a bounded length, with its full length said. */
function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length <= MAX_VALUE_CHARS ? text : `${text.slice(0, MAX_VALUE_CHARS - 1)}… (${text.length} chars)`;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function collect(recorded: unknown, actual: unknown, at: string, out: string[]): void {
  if (Array.isArray(recorded) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(recorded.length, actual.length); i++) collect(recorded[i], actual[i], `${at}[${i}]`, out);
    return;
  }
  if (isObject(recorded) && isObject(actual)) {
    for (const key of [...new Set([...Object.keys(recorded), ...Object.keys(actual)])].sort()) {
      collect(recorded[key], actual[key], at === '' ? key : `${at}.${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key).slice(0, 60)}`, out);
    }
    return;
  }
  if (JSON.stringify(recorded) !== JSON.stringify(actual)) out.push(`${at || '(request)'}: recorded ${show(recorded)}, got ${show(actual)}`);
}

/**
 * The differences between a recorded request and the one made now, one line per differing leaf
 * (`messages[2].content: recorded "a", got "b"`), at most {@link MAX_LISTED} of them and a count
 * of the others, each value cut: the text is bounded whatever the requests hold. Empty when equal.
 */
export function requestDiff(recorded: unknown, actual: unknown): string[] {
  const out: string[] = [];
  collect(recorded, actual, '', out);
  return out.length > MAX_LISTED ? [...out.slice(0, MAX_LISTED), `… and ${out.length - MAX_LISTED} more differences`] : out;
}
