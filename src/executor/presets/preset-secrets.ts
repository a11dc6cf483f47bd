import { isContainerPreset } from '../../di/container-preset';
import type { ToolEntry } from '../tool-entry';
import { collectSecrets, literalScrub, matchersScrub, MIN_SECRET_LENGTH, type Scrub } from './redact';
import { SecretMatcher } from './secret-forms';

/**
 * How many values a tool's call-time presets (functions, `fromContainer`) resolved to are
 * remembered, most recent first: what redacts a completion that names no waiting call.
 */
const REMEMBERED_PRESET_SECRETS = 64;

/**
 * @internal The secrets of one tool's presets: its fixed values (collected once) and what its
 * call-time presets resolved to in recent calls. Output that belongs to no running call (a stray
 * `AsyncTool` completion), or that is made before the call's presets resolve (`call_started`,
 * argument errors), is redacted with these; so is every call's own output.
 *
 * Kept up to date in place: the matcher of each secret (finding all its forms) is made once, added
 * to one list and removed when the secret is forgotten, and one {@link Scrub} reads that list. A
 * preset that resolves to a fresh value on every call (a rotating token) costs one matcher per
 * call, not a rebuild of every remembered value's.
 */
export class PresetSecrets {
  private readonly fixed = new Set<string>();
  /** Insertion order is recency: the first is the oldest. */
  private readonly recent = new Set<string>();
  /** True when some preset is resolved at call time. */
  private readonly dynamic: boolean;
  /** The matcher of every secret long enough to redact. */
  private readonly matchers: SecretMatcher[] = [];
  private readonly live: Scrub;

  constructor(entry: Pick<ToolEntry, 'presets'>) {
    let dynamic = false;
    for (const { value } of entry.presets ?? []) {
      if (typeof value === 'function' || isContainerPreset(value)) dynamic = true;
      else collectSecrets(value, this.fixed);
    }
    this.dynamic = dynamic;
    for (const secret of this.fixed) this.addMatcher(secret);
    this.live = matchersScrub(this.matchers);
  }

  /** True when the tool has call-time presets and none has been seen resolved in this process. */
  get unresolved(): boolean {
    return this.dynamic && this.recent.size === 0;
  }

  /** True when `secret` is the value (or a leaf) of one of the tool's fixed presets. */
  isFixed(secret: string): boolean {
    return this.fixed.has(secret);
  }

  /** Remembers what a call's presets resolved to (the oldest remembered values make room). */
  remember(secrets: Iterable<string>): void {
    for (const secret of secrets) {
      if (this.fixed.has(secret)) continue;
      if (this.recent.delete(secret)) {
        this.recent.add(secret);
        continue;
      }
      this.recent.add(secret);
      this.addMatcher(secret);
      if (this.recent.size > REMEMBERED_PRESET_SECRETS) {
        const oldest = this.recent.values().next().value as string;
        this.recent.delete(oldest);
        this.dropMatcher(oldest);
      }
    }
  }

  /**
   * Redaction of everything known of the tool, plus `own` (a call's resolved values: when many
   * calls rotate values, the call's own may already be forgotten here); `undefined` when there is
   * nothing to redact.
   */
  scrub(own?: ReadonlySet<string>): Scrub | undefined {
    if (own !== undefined) {
      const forgotten = [...own].filter((secret) => !this.fixed.has(secret) && !this.recent.has(secret));
      const extra = forgotten.length === 0 ? undefined : literalScrub(forgotten);
      if (extra !== undefined) return this.matchers.length === 0 ? extra : (text) => extra(this.live(text));
    }
    return this.matchers.length === 0 ? undefined : this.live;
  }

  private addMatcher(secret: string): void {
    if (secret.length >= MIN_SECRET_LENGTH) this.matchers.push(new SecretMatcher(secret));
  }

  private dropMatcher(secret: string): void {
    const at = this.matchers.findIndex((matcher) => matcher.secret === secret);
    if (at >= 0) this.matchers.splice(at, 1);
  }
}

const books = new WeakMap<Pick<ToolEntry, 'presets'>, PresetSecrets>();

/** @internal The {@link PresetSecrets} of a tool (or a resource, a prompt) with presets. */
export function presetSecretsOf(entry: Pick<ToolEntry, 'presets'>): PresetSecrets {
  let book = books.get(entry);
  if (book === undefined) books.set(entry, (book = new PresetSecrets(entry)));
  return book;
}
