import fs from 'node:fs';
import path from 'node:path';
import type { LLMRequest, LLMResponse, ProviderStreamEvent } from '../model/llm-types';
import { quoteInput } from '../utils/quote-input';
import { ToolkitError } from '../errors';
import { REDACTED } from '../executor/presets/redact';

/** What a cassette file says it is: `format` and `version` are checked on every read. */
const CASSETTE_FORMAT = 'toolwright-cassette';
/** The cassette layout this version writes and reads. */
const CASSETTE_VERSION = 1;

/** A request as a cassette keeps it: no abort signal, credentials in `options` redacted. */
export interface RecordedRequest {
  readonly model: string;
  readonly messages: LLMRequest['messages'];
  readonly tools: LLMRequest['tools'];
  readonly options?: Readonly<Record<string, unknown>> | undefined;
}

/** A provider failure as a cassette keeps it: replaying the interaction throws it again. */
export interface RecordedError {
  readonly name: string;
  readonly message: string;
  readonly code?: string | undefined;
}

/** One recorded `chat` turn: its request and its response, or the error the provider threw. */
export interface ChatInteraction {
  readonly kind: 'chat';
  readonly request: RecordedRequest;
  readonly response?: LLMResponse | undefined;
  readonly error?: RecordedError | undefined;
}

/**
 * One recorded `stream` turn: its request and the events the provider sent, in order, then the
 * error it failed with, if it did (a turn the consumer stopped early holds the events it read).
 */
export interface StreamInteraction {
  readonly kind: 'stream';
  readonly request: RecordedRequest;
  readonly events: readonly ProviderStreamEvent[];
  readonly error?: RecordedError | undefined;
}

/** One recorded model turn; `kind` names the provider method that answered it. */
export type Interaction = ChatInteraction | StreamInteraction;

/** A cassette file: the turns of one recorded run, in the order they were asked. */
export interface Cassette {
  readonly format: 'toolwright-cassette';
  readonly version: 1;
  readonly interactions: readonly Interaction[];
}

/** Option names whose values are credentials: replaced by {@link REDACTED} before anything is written. */
const SECRET_KEY = /^(x-)?api[-_]?key$|^authorization$|^proxy-authorization$|^cookie$|^set-cookie$|secret|password|credential|^(access|refresh|bearer|auth|session|id)[-_]?token$|^token$/i;

/** `value` with object keys sorted at every depth and credential-named keys redacted (when `redact`). */
function canonical(value: unknown, redact: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => canonical(item, redact));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function') continue;
    out[key] = redact && SECRET_KEY.test(key) ? REDACTED : canonical(item, redact);
  }
  return out;
}

/** The request as recorded and as compared on replay: JSON values only, keys sorted, credentials redacted. */
export function recordedRequest(request: LLMRequest): RecordedRequest {
  const plain = JSON.parse(JSON.stringify({ model: request.model, messages: request.messages, tools: request.tools, options: request.options })) as RecordedRequest;
  const { options, ...rest } = plain;
  return { ...(canonical(rest, false) as RecordedRequest), ...(options === undefined ? {} : { options: canonical(options, true) as Record<string, unknown> }) };
}

/** A response (or a stream event) as JSON keeps it, keys sorted. */
export function recordedResponse<T extends LLMResponse | ProviderStreamEvent>(response: T): T {
  return canonical(JSON.parse(JSON.stringify(response)), false) as T;
}

/** Writes the cassette, pretty and in a stable key order, through a temporary file (never half-written). */
export function writeCassette(file: string, interactions: readonly Interaction[]): void {
  const cassette: Cassette = { format: CASSETTE_FORMAT, version: CASSETTE_VERSION, interactions };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(canonical(cassette, false), null, 2)}\n`);
  fs.renameSync(temp, file);
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Reads and checks a cassette: a missing, unreadable or forged file is a `PROVIDER_FAILED` naming it and what is wrong. */
export function readCassette(file: string): Cassette {
  const fail = (why: string, cause?: unknown): never => {
    throw new ToolkitError('PROVIDER_FAILED', `replayProvider: the cassette ${quoteInput(file, 200)} ${why}`, { cause });
  };
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    fail(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); record it first with recordProvider.`, error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    fail('is not JSON.', error);
  }
  if (!isObject(parsed) || parsed.format !== CASSETTE_FORMAT) fail(`is not a toolwright cassette (no "format": "${CASSETTE_FORMAT}").`);
  const cassette = parsed as Record<string, unknown>;
  if (cassette.version !== CASSETTE_VERSION) fail(`has version ${quoteInput(String(cassette.version))}; this toolwright reads version ${CASSETTE_VERSION}.`);
  if (!Array.isArray(cassette.interactions)) fail('has no "interactions" array.');
  (cassette.interactions as unknown[]).forEach((entry, index) => {
    if (!isObject(entry) || (entry.kind !== 'chat' && entry.kind !== 'stream')) fail(`has an interaction ${index} of an unknown kind (this toolwright replays "chat" and "stream").`);
    const interaction = entry as Record<string, unknown>;
    const request = interaction.request;
    if (!isObject(request) || typeof request.model !== 'string' || !Array.isArray(request.messages) || !Array.isArray(request.tools)) fail(`has an interaction ${index} without a valid request.`);
    const error = interaction.error;
    const validError = isObject(error) && typeof error.message === 'string' && typeof error.name === 'string';
    if (error !== undefined && !validError) fail(`has an interaction ${index} with a malformed error.`);
    if (interaction.kind === 'stream') {
      const events = interaction.events;
      if (!Array.isArray(events) || !events.every((event) => isObject(event) && typeof event.type === 'string')) fail(`has a stream interaction ${index} without a valid "events" list.`);
      return;
    }
    const response = interaction.response;
    const validResponse = isObject(response) && typeof response.content === 'string' && Array.isArray(response.toolCalls);
    if (validResponse === validError) fail(`has an interaction ${index} without exactly one valid response or error.`);
  });
  return parsed as Cassette;
}
