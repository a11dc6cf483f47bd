import { SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { Observable, Subscription } from 'rxjs';
import type { AgentTool } from '../model/agent-tool';
import { truncateText } from '../executor/call/convert';
import { REDACTED, redactDeep } from '../executor/presets/redact';
import type { ToolEvent } from '../executor/event-types';

/**
 * The tracer name used when no tracer is given.
 *
 * @example
 * const tracer = trace.getTracer(TOOLWRIGHT_TRACER_NAME); // the tracer instrumentToolkit uses by default
 */
export const TOOLWRIGHT_TRACER_NAME = 'toolwright';

/**
 * What {@link instrumentToolkit} needs of a toolkit: its events (and its tools, for descriptions).
 * A `Toolkit` is one.
 *
 * @example
 * const target: InstrumentableToolkit = toolkit;
 */
export interface InstrumentableToolkit {
  /** The toolkit's call events (sessions share them). */
  readonly events$: Observable<ToolEvent>;
  /** Looks a tool up, to record its description. */
  getTool?: ((name: string) => AgentTool | undefined) | undefined;
}

/**
 * Options of {@link instrumentToolkit}.
 *
 * @example
 * const options: ToolTracingOptions = { tracer: provider.getTracer('agent'), captureArguments: true, maxAttributeChars: 1_000 };
 */
export interface ToolTracingOptions {
  /** The tracer (default: `trace.getTracer('toolwright')` of the global tracer provider). */
  tracer?: Tracer | undefined;
  /** Record the call's arguments as `gen_ai.tool.call.arguments` (JSON, redacted, truncated). Default `false`. */
  captureArguments?: boolean | undefined;
  /** Record the text the model gets as `gen_ai.tool.call.result` (redacted, truncated). Default `false`. */
  captureResults?: boolean | undefined;
  /**
   * Scrubs every text recorded from a call: arguments, results and error messages (preset values
   * are already redacted by the toolkit). Use a `createRedactor(...).text`.
   */
  redact?: ((text: string) => string) | undefined;
  /**
   * Record each log message of a call (`call_log`) as a `toolwright.log` span event with its
   * level and logger; `true` adds the message itself as `toolwright.log.data` (JSON, redacted,
   * truncated). Default: level and logger only.
   */
  captureLogs?: boolean | undefined;
  /** The longest captured arguments / result / error text, cut keeping head and tail (default 4,096). */
  maxAttributeChars?: number | undefined;
}

/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions used on tool spans.
 *
 * @example
 * exporter.getFinishedSpans().filter((s) => s.attributes[GEN_AI_ATTRIBUTES.toolName] === 'get_weather');
 */
export const GEN_AI_ATTRIBUTES = Object.freeze({
  operationName: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  sessionId: 'session.id',
});

type CallEvent = Extract<ToolEvent, { callId: string }>;

function keyOf(event: CallEvent): string {
  return `${event.sessionId ?? ''}\u0000${event.tool}\u0000${event.callId}`;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '[unserialisable]';
  }
}

/**
 * Traces every tool call of `toolkit` (and of its sessions) with one OpenTelemetry span,
 * following the GenAI semantic conventions: name `execute_tool {tool}`, kind `INTERNAL`,
 * `gen_ai.operation.name = 'execute_tool'`, `gen_ai.tool.name`, `gen_ai.tool.call.id`,
 * `gen_ai.tool.type = 'function'`, `gen_ai.tool.description`, `session.id` for session calls,
 * and — opt-in — `gen_ai.tool.call.arguments` / `gen_ai.tool.call.result` (redacted, truncated).
 * A failed call (error result, timeout, abort, denial, unknown tool…) gets status `ERROR` and
 * `error.type` = its error code; failed attempts before a retry and the tool's log messages
 * (`toolwright.log`, see `captureLogs`) appear as span events.
 *
 * Built on `toolkit.events$`: a span starts at `call_started` (which every call has, a call
 * rejected before it ran included: unknown tool, invalid arguments, denied by a hook…) and ends at
 * the call's terminal event (`call_succeeded`, `call_failed`, `call_timed_out`, `call_aborted`),
 * matched by session, tool and call id. A call whose start was missed (tracing began while it
 * ran) gets a span covering its duration. Spans are children of the context
 * active where the call was made. Preset values never reach a span: the toolkit's events never
 * hold them.
 *
 * Lives in `toolwright/otel`, so the core never loads `@opentelemetry/api`.
 *
 * @returns a Subscription: `unsubscribe()` stops tracing and ends the spans still open.
 *
 * @example
 * import { instrumentToolkit } from 'toolwright/otel';
 * import { createRedactor, SECRET_PATTERNS } from 'toolwright';
 * const tracing = instrumentToolkit(toolkit, {
 *   captureArguments: true,
 *   captureResults: true,
 *   redact: createRedactor({ patterns: Object.values(SECRET_PATTERNS) }).text,
 * });
 * // on shutdown
 * tracing.unsubscribe();
 */
export function instrumentToolkit(toolkit: InstrumentableToolkit, options: ToolTracingOptions = {}): Subscription {
  const tracer = options.tracer ?? trace.getTracer(TOOLWRIGHT_TRACER_NAME);
  const max = options.maxAttributeChars ?? 4096;
  const open = new Map<string, Span[]>();
  // A redactor that throws fails closed (the text becomes '[REDACTED]'); what it threw is rethrown
  // once the span is consistent, and toolkit.events$ reports it as a `callback_failed` event.
  let failure: { readonly error: unknown } | undefined;
  const userRedact = options.redact;
  const redact =
    userRedact === undefined
      ? undefined
      : (text: string): string => {
          try {
            return userRedact(text);
          } catch (error) {
            failure ??= { error };
            return REDACTED;
          }
        };
  const clean = (text: string): string => truncateText(redact ? redact(text) : text, max);

  const start = (event: CallEvent, startTime: number): Span => {
    const attributes: Attributes = {
      [GEN_AI_ATTRIBUTES.operationName]: 'execute_tool',
      [GEN_AI_ATTRIBUTES.toolName]: event.tool,
      [GEN_AI_ATTRIBUTES.toolCallId]: event.callId,
      [GEN_AI_ATTRIBUTES.toolType]: 'function',
    };
    const description = toolkit.getTool?.(event.tool)?.description;
    if (description) attributes[GEN_AI_ATTRIBUTES.toolDescription] = description;
    if (event.sessionId !== undefined) attributes[GEN_AI_ATTRIBUTES.sessionId] = event.sessionId;
    return tracer.startSpan(`execute_tool ${event.tool}`, { kind: SpanKind.INTERNAL, startTime, attributes });
  };

  /** The open span of the call, or a new one covering `durationMs` for calls that ended without starting. */
  const take = (event: CallEvent, durationMs: number | undefined): Span => {
    const key = keyOf(event);
    const spans = open.get(key);
    const span = spans?.shift();
    if (spans && spans.length === 0) open.delete(key);
    return span ?? start(event, event.timestamp - (durationMs ?? 0));
  };

  const fail = (span: Span, code: string, message: string): void => {
    span.setAttribute(GEN_AI_ATTRIBUTES.errorType, code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: clean(message) });
  };

  const onEvent = (event: ToolEvent): void => {
    record(event);
    const failed = failure;
    failure = undefined;
    if (failed !== undefined) throw failed.error;
  };

  const record = (event: ToolEvent): void => {
    switch (event.type) {
      case 'call_started': {
        const span = start(event, event.timestamp);
        if (options.captureArguments) {
          // `redact` sees each value before JSON escapes it, then the JSON text once more; a rejected
          // call's arguments that are no JSON object come as text (`rawArguments`), redacted by `clean`
          const raw = event.rawArguments;
          const text = raw !== undefined ? raw : json(redact ? redactDeep(event.arguments, redact) : event.arguments);
          span.setAttribute(GEN_AI_ATTRIBUTES.toolCallArguments, clean(text));
        }
        const key = keyOf(event);
        const spans = open.get(key);
        if (spans) spans.push(span);
        else open.set(key, [span]);
        return;
      }
      case 'call_repaired': {
        const span = open.get(keyOf(event))?.[0];
        if (span === undefined) return;
        span.setAttribute('toolwright.repaired', true);
        for (const change of event.changes) {
          const attributes: Attributes = { 'toolwright.repair.kind': change.kind, 'toolwright.repair.path': change.path };
          if (options.captureArguments) {
            const text = (value: unknown): string => clean(typeof value === 'string' ? value : json(redact ? redactDeep(value ?? null, redact) : (value ?? null)));
            attributes['toolwright.repair.before'] = text(change.before);
            attributes['toolwright.repair.after'] = text(change.after);
          }
          span.addEvent('toolwright.call_repaired', attributes, event.timestamp);
        }
        return;
      }
      case 'attempt_failed': {
        const span = open.get(keyOf(event))?.[0];
        span?.addEvent('toolwright.attempt_failed', { 'toolwright.attempt': event.attempt, [GEN_AI_ATTRIBUTES.errorType]: event.error.code }, event.timestamp);
        return;
      }
      case 'call_log': {
        const span = open.get(keyOf(event))?.[0];
        if (span === undefined) return;
        const attributes: Attributes = { 'toolwright.log.level': event.level, 'toolwright.attempt': event.attempt };
        if (event.logger !== undefined) attributes['toolwright.log.logger'] = event.logger;
        if (options.captureLogs) attributes['toolwright.log.data'] = clean(typeof event.data === 'string' ? event.data : json(event.data));
        span.addEvent('toolwright.log', attributes, event.timestamp);
        return;
      }
      case 'retry_scheduled': {
        const span = open.get(keyOf(event))?.[0];
        span?.addEvent('toolwright.retry_scheduled', { 'toolwright.attempt': event.attempt, 'toolwright.delay_ms': event.delayMs }, event.timestamp);
        return;
      }
      case 'call_succeeded': {
        const span = take(event, event.durationMs);
        if (options.captureResults) span.setAttribute(GEN_AI_ATTRIBUTES.toolCallResult, clean(event.result.forLLM));
        span.end(event.timestamp);
        return;
      }
      case 'call_failed': {
        const span = take(event, event.durationMs);
        fail(span, event.error.code, event.error.message);
        span.end(event.timestamp);
        return;
      }
      case 'call_timed_out': {
        const span = take(event, event.durationMs);
        fail(span, 'TIMEOUT', `Tool '${event.tool}' timed out after ${event.timeoutMs} ms`);
        span.end(event.timestamp);
        return;
      }
      case 'call_aborted': {
        const span = take(event, event.durationMs);
        fail(span, 'ABORTED', `Tool '${event.tool}' was aborted: ${event.reason}`);
        span.end(event.timestamp);
        return;
      }
      default:
        return;
    }
  };

  const subscription = toolkit.events$.subscribe(onEvent);
  subscription.add(() => {
    for (const spans of open.values()) for (const span of spans) span.end();
    open.clear();
  });
  return subscription;
}
