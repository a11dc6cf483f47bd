/** Names longer than this get no suggestions: no tool name is that long (providers allow 64-128). */
const MAX_SUGGESTED_NAME = 256;
/** The most edit-distance cells one unknown name may cost, however many tools are registered. */
const SUGGESTION_CELLS = 1_000_000;

/**
 * The edit distance of `a` and `b` when it is at most `limit`, otherwise `limit + 1`: only cells
 * within `limit` of the diagonal are filled, and a row past `limit` ends the work.
 */
function boundedDistance(a: string, b: string, limit: number): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => (j <= limit ? j : over));
  let current = new Array<number>(b.length + 1).fill(over);
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    current[from - 1] = from === 1 ? (i <= limit ? i : over) : over;
    let best = current[from - 1];
    for (let j = from; j <= to; j++) {
      const cell = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1), over);
      current[j] = cell;
      if (cell < best) best = cell;
    }
    if (to < b.length) current[to + 1] = over;
    if (best > limit) return over;
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}

/**
 * Up to three enabled names close to `name` (a substring either way, or a few edits away). The
 * work is bounded: no suggestions for names longer than any tool name, edit distances only for
 * names of about the same length, and a fixed budget of cells per unknown name.
 */
export function closeNames(name: string, candidates: readonly string[]): string[] {
  if (name.length === 0 || name.length > MAX_SUGGESTED_NAME) return [];
  const lower = name.toLowerCase();
  let cells = SUGGESTION_CELLS;
  const close: { c: string; d: number }[] = [];
  for (const c of candidates) {
    const other = c.toLowerCase();
    const limit = Math.max(2, Math.floor(c.length / 3));
    let d = other.includes(lower) || lower.includes(other) ? 0 : limit + 1;
    if (d > limit && cells > 0 && Math.abs(lower.length - other.length) <= limit) {
      cells -= lower.length * (2 * limit + 1);
      d = boundedDistance(lower, other, limit);
    }
    if (d <= limit) close.push({ c, d });
  }
  return close
    .sort((x, y) => x.d - y.d)
    .slice(0, 3)
    .map(({ c }) => c);
}
