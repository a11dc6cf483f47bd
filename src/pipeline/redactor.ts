import type { ToolResult } from '../common/tool-types';
import { REDACTED } from '../executor/redact';

/**
 * What replaces a redacted match unless configured otherwise: the executor's own text for presets.
 *
 * @example
 * createRedactor({ patterns: [SECRET_PATTERNS.email] }).text('ada@example.com') === DEFAULT_REDACTION; // true
 */
export const DEFAULT_REDACTION = REDACTED;

/** Secrets shorter than this are ignored: redacting `'a'` would shred every text. */
const MIN_SECRET_LENGTH = 4;

/**
 * Patterns of common secret and personal-data shapes, for {@link createRedactor} and
 * `createRedactionHook`. Each is a global RegExp; pick the ones you need or spread them all.
 *
 * @example
 * createRedactionHook({ patterns: [SECRET_PATTERNS.email, SECRET_PATTERNS.openAiKey] });
 * createRedactionHook({ patterns: Object.values(SECRET_PATTERNS) });
 */
export const SECRET_PATTERNS = Object.freeze({
  /** e-mail addresses */
  email: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g,
  /** OpenAI / Anthropic style API keys (`sk-…`, `sk-ant-…`) */
  openAiKey: /\bsk-[A-Za-z0-9_-]{16,}/g,
  /** AWS access key ids */
  awsAccessKeyId: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /** GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`) */
  githubToken: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g,
  /** Slack tokens (`xoxb-…`, `xoxp-…`) */
  slackToken: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /** JSON Web Tokens */
  jwt: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g,
  /** `Bearer <token>` credentials (the scheme word is kept) */
  bearerToken: /(?<=\bBearer\s+)[A-Za-z0-9._~+/-]{8,}=*/g,
  /** PEM private keys */
  privateKey: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
});

/**
 * Options of {@link createRedactor}.
 *
 * @example
 * createRedactor({ patterns: [/\bacct-\d{8}\b/g], secrets: [config.dbPassword], replacement: '<secret>' });
 */
export interface RedactorOptions {
  /** Matches of these are replaced (the `g` flag is added when missing). */
  patterns?: readonly RegExp[];
  /** Literal values to replace wherever they occur (values shorter than 4 characters are ignored). */
  secrets?: readonly string[];
  /** The replacement text (default `'[REDACTED]'`). */
  replacement?: string;
}

/**
 * Scrubs configured patterns and literal secrets from text, from JSON-like values and from
 * tool results. Pure and synchronous; reuse one per configuration.
 *
 * @example
 * const redactor = createRedactor({ patterns: [SECRET_PATTERNS.email] });
 * logger.info(redactor.value(event));
 */
export interface Redactor {
  /** `text` with every match replaced. */
  readonly text: (text: string, extraSecrets?: readonly string[]) => string;
  /**
   * A copy of `value` with every string redacted, at any depth of plain objects and arrays
   * (`value` itself when nothing changed). Other objects (class instances, Maps…) are kept when
   * their JSON text holds no match, and become the replacement text otherwise.
   */
  readonly value: <T>(value: T, extraSecrets?: readonly string[]) => T;
  /** A copy of `result` with `forLLM`, `forUser`, `error.message` and `data` redacted (`result` itself when clean). */
  readonly result: (result: ToolResult, extraSecrets?: readonly string[]) => ToolResult;
}

function globalCopy(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
}

function usableSecrets(secrets: readonly string[] | undefined): string[] {
  if (!secrets || secrets.length === 0) return [];
  return [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}

/**
 * Builds a {@link Redactor} from patterns and literal secrets.
 *
 * @example
 * const redactor = createRedactor({ patterns: [SECRET_PATTERNS.email], secrets: [process.env.DB_PASSWORD ?? ''] });
 * redactor.text('mail ada@example.com'); // 'mail [REDACTED]'
 * instrumentToolkit(toolkit, { captureResults: true, redact: redactor.text });
 */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const patterns = (options.patterns ?? []).map(globalCopy);
  const fixed = usableSecrets(options.secrets);
  const replacement = options.replacement ?? DEFAULT_REDACTION;

  const text = (input: string, extraSecrets?: readonly string[]): string => {
    let out = input;
    const secrets = extraSecrets && extraSecrets.length ? usableSecrets([...fixed, ...extraSecrets]) : fixed;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(replacement);
    // String.prototype.replace resets a global pattern's lastIndex, so shared patterns are safe.
    for (const pattern of patterns) out = out.replace(pattern, replacement);
    return out;
  };

  const walk = (value: unknown, secrets: readonly string[] | undefined, depth: number): unknown => {
    if (typeof value === 'string') return text(value, secrets);
    if (typeof value !== 'object' || value === null) return value;
    if (depth > 32) return replacement;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((item: unknown, i) => {
        const safe = walk(item, secrets, depth + 1);
        if (safe !== item) (copy ??= value.slice())[i] = safe;
      });
      return copy ?? value;
    }
    if (value instanceof Error) {
      // JSON sees no own fields on an Error: scrub its message (and stack) directly.
      const message = text(value.message, secrets);
      if (message === value.message && (value.stack === undefined || text(value.stack, secrets) === value.stack)) return value;
      const safe = new Error(message);
      safe.name = value.name;
      safe.stack = `${value.name}: ${message}`;
      return safe;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return jsonChanges(value, (s) => text(s, secrets)) ? replacement : value;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const safe = walk(item, secrets, depth + 1);
      if (safe !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = safe;
    }
    return copy ?? value;
  };

  const value = <T>(input: T, extraSecrets?: readonly string[]): T => walk(input, extraSecrets, 0) as T;

  const result = (input: ToolResult, extraSecrets?: readonly string[]): ToolResult => {
    const forLLM = text(input.forLLM, extraSecrets);
    const forUser = input.forUser === undefined ? undefined : text(input.forUser, extraSecrets);
    const message = input.error ? text(input.error.message, extraSecrets) : undefined;
    const data = input.data === undefined ? undefined : value(input.data, extraSecrets);
    if (forLLM === input.forLLM && forUser === input.forUser && message === input.error?.message && data === input.data) return input;
    const copy: ToolResult = { ...input, forLLM };
    if (forUser !== undefined) copy.forUser = forUser;
    if (input.error && message !== undefined) copy.error = { ...input.error, message };
    if (data !== undefined) copy.data = data;
    return copy;
  };

  return Object.freeze({ text, value, result });
}

/** True when some string in `value`'s JSON text changes under `scrub` (or when it cannot be inspected). */
function jsonChanges(value: object, scrub: (text: string) => string): boolean {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return true; // cannot be inspected: assume the worst
  }
  return json !== undefined && scrub(json) !== json;
}
