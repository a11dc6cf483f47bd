import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Subscription } from 'rxjs';
import type { Toolkit } from '../../src';
import { instrumentToolkit } from '../../src/otel';

/** Number fields that are clocks, not output: a secret number may collide with them by chance. */
const CLOCK_FIELDS = new Set(['timestamp', 'durationMs', 'delayMs', 'startTime', 'endTime', 'duration', 'time']);

/**
 * Every text reachable in `value`: strings, the decimal text of numbers, object keys, and the
 * insides of Errors (name, message, stack, cause, errors, fields), Maps, Sets, typed arrays (as
 * UTF-8) and class instances (own fields and their JSON text) — what any consumer could read.
 */
export function textsOf(value: unknown, out: string[] = [], key = '', seen = new Set<object>()): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'bigint') {
    if (!CLOCK_FIELDS.has(key)) out.push(String(value));
  } else if (typeof value === 'object' && value !== null && !seen.has(value)) {
    seen.add(value);
    if (value instanceof Error) {
      for (const part of [value.name, value.message, value.stack, value.cause, (value as Partial<AggregateError>).errors]) textsOf(part, out, '', seen);
    }
    if (value instanceof Map) for (const [k, v] of value) (textsOf(k, out, '', seen), textsOf(v, out, '', seen));
    else if (value instanceof Set) for (const v of value) textsOf(v, out, '', seen);
    else if (ArrayBuffer.isView(value)) out.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8'));
    else {
      for (const [k, v] of Object.entries(value)) {
        out.push(k);
        textsOf(v, out, k, seen);
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null && !Array.isArray(value)) {
        try {
          const json = JSON.stringify(value); // a class instance's toJSON
          if (json !== undefined) out.push(json);
        } catch {
          // circular: the fields were read above
        }
      }
    }
  }
  return out;
}

/** `fn()`, or nothing when it throws (a lone surrogate has no URL encoding). */
function attempt(fn: () => string): string[] {
  try {
    return [fn()];
  } catch {
    return [];
  }
}

/**
 * The URL-encoded forms of `text` as JavaScript's own APIs make them: `encodeURIComponent`,
 * `encodeURI`, `URLSearchParams`, and what a `URL` serialises of it as a path, a query, a fragment
 * or a password (`href`, `pathname`, `search`, `hash`, `password`), with a special and a
 * non-special scheme.
 */
export function urlForms(text: string): string[] {
  const between = (whole: string, before: string, after: string): string => whole.slice(whole.indexOf(before) + before.length, whole.lastIndexOf(after));
  const password = (base: string): string => {
    const url = new URL(base);
    url.password = text;
    return url.password;
  };
  return [
    ...attempt(() => encodeURIComponent(text)),
    ...attempt(() => encodeURI(text)),
    new URLSearchParams({ k: text }).toString().slice(2),
    ...['https', 'redis'].flatMap((scheme) => [
      between(new URL(`${scheme}://h.example/v1/${text}/end`).href, '/v1/', '/end'),
      between(new URL(`${scheme}://h.example/v1?k=${text}&end`).href, '?k=', '&end'),
      between(new URL(`${scheme}://h.example/v1#${text}|end`).href, '#', '|end'),
      password(`${scheme}://h.example/`),
    ]),
  ];
}

/** `text` with its percent escapes in lower case (`%2F` → `%2f`). */
const lowerEscapes = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/**
 * What of `secret` must never appear: raw, JSON-escaped (once, twice), URL-encoded in every form
 * ({@link urlForms}, also with lower-case escapes, also JSON-escaped), and for texts of 8+
 * characters the first and last 8 characters of each of those (what a cut would leave).
 */
export function leakForms(secret: string | number): string[] {
  const raw = String(secret);
  const json = (text: string): string => JSON.stringify(text).slice(1, -1);
  const once = json(raw);
  const forms = [raw, once, json(once)];
  for (const url of urlForms(raw)) forms.push(url, lowerEscapes(url), json(url));
  if (typeof secret === 'string' && secret.length >= 8) for (const form of [...forms]) forms.push(form.slice(0, 8), form.slice(-8));
  return [...new Set(forms)];
}

/** Each `{ secret, form, where }` of `secrets` found in the texts of `value` (empty: no leak). */
export function findLeaks(value: unknown, secrets: readonly (string | number)[]): { secret: string | number; form: string; where: string }[] {
  const texts = textsOf(value);
  const found: { secret: string | number; form: string; where: string }[] = [];
  for (const secret of secrets) {
    for (const form of leakForms(secret)) {
      const where = texts.find((t) => t.includes(form));
      if (where !== undefined) found.push({ secret, form, where: where.length > 300 ? `${where.slice(0, 300)}…` : where });
    }
  }
  return found;
}

/** Traces `toolkit` into memory, recording arguments and results. */
export function traceAll(toolkit: Toolkit, options: { redact?: (text: string) => string } = {}): { spans(): unknown[]; subscription: Subscription } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const subscription = instrumentToolkit(toolkit, { tracer: provider.getTracer('leak-test'), captureArguments: true, captureResults: true, ...options });
  return {
    spans: () => exporter.getFinishedSpans().map((s: ReadableSpan) => ({ name: s.name, attributes: s.attributes, status: s.status, events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })) })),
    subscription,
  };
}
