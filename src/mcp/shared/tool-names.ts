/** OpenAI's limit, the shortest of `PROVIDER_NAME_RULES` (schema/lowering), whose characters these names also keep to. */
const MAX = 64;

/** A short, stable hash (FNV-1a, 32 bits, base 36) used to keep shortened names unique. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36).padStart(7, '0');
}

function sanitize(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]+/g, '_');
}

const headOf = (prefix: string | undefined): string => (prefix ? sanitize(prefix.normalize('NFKC')).replace(/_+$/, '') : '');
/** Compatibility forms (fullwidth `ｐａｙ`, ligatures, …) become what they stand for before anything is replaced. */
const bodyOf = (remote: string): string => sanitize(remote.normalize('NFKC')).replace(/^_+(?=.)/, '') || 'tool';

/**
 * @internal The form under which two tool names are the same name to a reader: Unicode
 * compatibility forms folded (NFKC) and case ignored (`Pay`, `PAY` and `ｐａｙ` are all `pay`).
 *
 * @example
 * foldedName('Ｐay') === foldedName('pay'); // true
 */
export function foldedName(name: string): string {
  return name.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/**
 * @internal `prefix_remote` with compatibility forms folded (NFKC) and the characters a provider
 * rejects replaced, before any shortening: the name a remote tool asks for.
 *
 * @example
 * joinedName('repo.search', 'gh'); // 'gh_repo_search'
 */
export function joinedName(remote: string, prefix: string | undefined): string {
  const head = headOf(prefix);
  return head ? `${head}_${bodyOf(remote)}` : bodyOf(remote);
}

/**
 * @internal A local name for a remote MCP tool that every provider accepts: `prefix_remote` with
 * compatibility forms folded (NFKC) and every other character replaced by `_` (never `.`), at
 * most 64 characters. When the name had to be shortened or is taken, the end is replaced by a hash
 * of the remote name, so the result is stable across refreshes and distinct per remote tool.
 *
 * @example
 * portableToolName('repo.search', 'github', () => false); // 'github_repo_search'
 */
export function portableToolName(remote: string, prefix: string | undefined, taken: (name: string) => boolean): string {
  const joined = joinedName(remote, prefix);
  if (joined.length <= MAX && !taken(joined)) return joined;
  for (let salt = 0; ; salt++) {
    const suffix = `_${shortHash(salt === 0 ? remote : `${remote}#${salt}`)}`;
    const candidate = `${joined.slice(0, MAX - suffix.length)}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * @internal Why {@link portableToolName} gave `local` for `remote`, or `undefined` when it is the
 * remote name itself: the prefix, characters a provider rejects, a name too long or taken.
 *
 * @example
 * renameNote('repo.search', 'github', 'github_repo_search'); // "renamed to 'github_repo_search' (prefix 'github'; characters a provider rejects replaced by _)"
 */
export function renameNote(remote: string, prefix: string | undefined, local: string): string | undefined {
  if (local === remote) return undefined;
  const head = headOf(prefix);
  const joined = joinedName(remote, prefix);
  const why: string[] = [];
  if (head) why.push(`prefix '${head}'`);
  const normalized = remote.normalize('NFKC');
  if (normalized !== remote) why.push('Unicode compatibility forms folded (NFKC)');
  if (bodyOf(remote) !== normalized) why.push('characters a provider rejects replaced by _');
  if (local !== joined) why.push(joined.length > MAX ? `longer than ${MAX} characters: shortened, with a hash` : `'${joined}' was taken: a hash appended`);
  return `renamed to '${local}' (${why.join('; ')})`;
}
