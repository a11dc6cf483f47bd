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

/**
 * @internal A local name for a remote MCP tool that every provider accepts: `prefix_remote` with every
 * other character replaced by `_` (never `.`), at most 64 characters. When the name had to be
 * shortened or is taken, the end is replaced by a hash of the remote name, so the result is
 * stable across refreshes and distinct per remote tool.
 *
 * @example
 * portableToolName('repo.search', 'github', () => false); // 'github_repo_search'
 */
export function portableToolName(remote: string, prefix: string | undefined, taken: (name: string) => boolean): string {
  const head = prefix ? sanitize(prefix).replace(/_+$/, '') : '';
  const body = sanitize(remote).replace(/^_+(?=.)/, '') || 'tool';
  const joined = head ? `${head}_${body}` : body;
  if (joined.length <= MAX && !taken(joined)) return joined;
  for (let salt = 0; ; salt++) {
    const suffix = `_${shortHash(salt === 0 ? remote : `${remote}#${salt}`)}`;
    const candidate = `${joined.slice(0, MAX - suffix.length)}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}
