import type { ToolResult } from '../model/tool-types';
import { literalScrub, redactDeep, redactResult, REDACTED, type Scrub } from '../executor/presets/redact';

/**
 * What replaces a redacted match unless configured otherwise: the executor's own text for presets.
 *
 * @example
 * createRedactor({ patterns: [SECRET_PATTERNS.email] }).text('ada@example.com') === DEFAULT_REDACTION; // true
 */
export const DEFAULT_REDACTION = REDACTED;

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
  patterns?: readonly RegExp[] | undefined;
  /**
   * Literal values to replace wherever they occur, raw, JSON-escaped or URL-encoded (values
   * shorter than 4 characters are ignored).
   */
  secrets?: readonly string[] | undefined;
  /** The replacement text (default `'[REDACTED]'`). */
  replacement?: string | undefined;
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
   * A copy of `value` with every string redacted, at any depth of plain objects, arrays, Maps,
   * Sets and Errors (message, name, stack, cause chain), and numbers whose text matches replaced
   * (`value` itself when nothing changed). Class instances and values with a `toJSON` are kept
   * when neither their fields nor their JSON text hold a match, and become the replacement text
   * otherwise.
   */
  readonly value: <T>(value: T, extraSecrets?: readonly string[]) => T;
  /** A copy of `result` with `forLLM`, `forUser`, `error`, `data` and any other field redacted (`result` itself when clean). */
  readonly result: (result: ToolResult, extraSecrets?: readonly string[]) => ToolResult;
}

function globalCopy(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
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
  const fixedSecrets = options.secrets ?? [];
  const replacement = options.replacement ?? DEFAULT_REDACTION;
  const fixed = literalScrub(fixedSecrets, replacement);

  const scrubFor = (extraSecrets: readonly string[] | undefined): Scrub => {
    const literal = extraSecrets && extraSecrets.length ? literalScrub([...fixedSecrets, ...extraSecrets], replacement) : fixed;
    return (input) => {
      let out = literal ? literal(input) : input;
      // String.prototype.replace resets a global pattern's lastIndex, so shared patterns are safe.
      for (const pattern of patterns) out = out.replace(pattern, replacement);
      return out;
    };
  };
  const plain = scrubFor(undefined);

  return Object.freeze({
    text: (input: string, extraSecrets?: readonly string[]): string => (extraSecrets ? scrubFor(extraSecrets) : plain)(input),
    value: <T>(input: T, extraSecrets?: readonly string[]): T => redactDeep(input, extraSecrets ? scrubFor(extraSecrets) : plain, replacement) as T,
    result: (input: ToolResult, extraSecrets?: readonly string[]): ToolResult =>
      redactResult(input, extraSecrets ? scrubFor(extraSecrets) : plain, replacement),
  });
}
