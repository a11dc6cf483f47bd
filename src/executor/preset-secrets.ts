import { isContainerPreset } from './presets';
import type { ToolEntry } from './tool-entry';
import { collectSecrets, literalScrub, type Scrub } from './redact';

/**
 * How many values a tool's call-time presets (functions, `fromContainer`) resolved to are
 * remembered, most recent first: what redacts a completion that names no waiting call.
 */
const REMEMBERED_PRESET_SECRETS = 64;

/**
 * @internal The secrets of one tool's presets: its fixed values (collected once) and what its
 * call-time presets resolved to in recent calls. Output that belongs to no running call (a stray
 * `AsyncTool` completion), or that is made before the call's presets resolve (`call_started`,
 * argument errors), is redacted with these.
 */
export class PresetSecrets {
  private readonly fixed = new Set<string>();
  /** Insertion order is recency: the first is the oldest. */
  private readonly recent = new Set<string>();
  /** True when some preset is resolved at call time. */
  private readonly dynamic: boolean;
  /** The scrub of `fixed` and `recent`; `null` until built (again after `recent` changes). */
  private cached: Scrub | undefined | null = null;

  constructor(entry: ToolEntry) {
    let dynamic = false;
    for (const { value } of entry.presets ?? []) {
      if (typeof value === 'function' || isContainerPreset(value)) dynamic = true;
      else collectSecrets(value, this.fixed);
    }
    this.dynamic = dynamic;
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
      const known = this.recent.delete(secret);
      this.recent.add(secret);
      if (known) continue;
      this.cached = null;
      if (this.recent.size > REMEMBERED_PRESET_SECRETS) this.recent.delete(this.recent.values().next().value as string);
    }
  }

  /** Redaction of everything known of the tool, plus `own` (a call's resolved values); `undefined` when there is nothing to redact. */
  scrub(own?: ReadonlySet<string>): Scrub | undefined {
    if (own !== undefined) {
      for (const secret of own) {
        if (!this.fixed.has(secret) && !this.recent.has(secret)) return literalScrub([...this.fixed, ...this.recent, ...own]);
      }
    }
    if (this.cached === null) this.cached = literalScrub([...this.fixed, ...this.recent]);
    return this.cached;
  }
}

const books = new WeakMap<ToolEntry, PresetSecrets>();

/** @internal The {@link PresetSecrets} of a tool with presets. */
export function presetSecretsOf(entry: ToolEntry): PresetSecrets {
  let book = books.get(entry);
  if (book === undefined) books.set(entry, (book = new PresetSecrets(entry)));
  return book;
}
