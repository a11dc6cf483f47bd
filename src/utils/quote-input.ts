/**
 * The longest piece of model (or remote) input that an error text quotes: tool names,
 * argument keys and paths, values, group and skill names. Longer input is cut, with its length said.
 */
const MAX_QUOTED_CHARS = 80;

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  // never split a surrogate pair
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * @internal Model input (a name, a key, a parse error) as an error text quotes it: in single
 * quotes, cut to `max` characters with its full length said, so a text never grows with the input.
 *
 * @example
 * quoteInput('get_wether');          // "'get_wether'"
 * quoteInput('x'.repeat(1e6), 10);   // "'xxxxxxxxx…' (1000000 chars)"
 */
export function quoteInput(text: string, max: number = MAX_QUOTED_CHARS): string {
  return text.length <= max ? `'${text}'` : `'${cut(text, max)}' (${text.length} chars)`;
}

/**
 * @internal Several pieces of model input (group names, keys), each quoted by {@link quoteInput},
 * at most `maxItems` of them and a count of the others.
 *
 * @example
 * quoteInputs(['a', 'b', 'c'], 2); // "'a', 'b' and 1 more"
 */
export function quoteInputs(texts: readonly string[], maxItems = 10): string {
  const listed = texts.slice(0, maxItems).map((text) => quoteInput(text)).join(', ');
  return texts.length > maxItems ? `${listed} and ${texts.length - maxItems} more` : listed;
}

/**
 * @internal Model input as text without quotes, cut to `max` characters (for parse errors and
 * paths that are already set in quotes or brackets).
 *
 * @example
 * boundInput('Unexpected token } in JSON at position 5'); // unchanged
 */
export function boundInput(text: string, max: number = MAX_QUOTED_CHARS): string {
  return cut(text, max);
}

/**
 * @internal A JSON preview of any value, written with work bounded by `max` (a 100k-item array
 * is not serialized to be cut afterwards): strings are cut before they are escaped, containers
 * stop at the first member past the budget.
 *
 * @example
 * previewInput({ city: 'Paris' });             // '{"city":"Paris"}'
 * previewInput(Array(1e5).fill(1), 12);        // '[1,1,1,1,1,…'
 */
export function previewInput(value: unknown, max: number = MAX_QUOTED_CHARS): string {
  let text = '';
  const write = (v: unknown, depth: number): void => {
    if (text.length > max) return;
    if (typeof v === 'string') {
      text += JSON.stringify(v.length > max ? v.slice(0, max) : v);
      return;
    }
    if (typeof v !== 'object' || v === null) {
      text += typeof v === 'number' || typeof v === 'boolean' || v === null ? String(v) : typeof v;
      return;
    }
    if (depth > 8) {
      text += Array.isArray(v) ? '[…]' : '{…}';
      return;
    }
    if (Array.isArray(v)) {
      text += '[';
      for (let i = 0; i < v.length && text.length <= max; i++) {
        if (i > 0) text += ',';
        write(v[i], depth + 1);
      }
      text += ']';
      return;
    }
    text += '{';
    let first = true;
    for (const key in v) {
      if (text.length > max) break;
      if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
      text += `${first ? '' : ','}${JSON.stringify(key.length > max ? key.slice(0, max) : key)}:`;
      first = false;
      write((v as Record<string, unknown>)[key], depth + 1);
    }
    text += '}';
  };
  write(value, 0);
  return cut(text, max);
}
