import type { ToolCallContext } from '../../model/agent-tool';
import type { ElicitationRequest, SamplingRequest } from '../../model/client-request-types';
import { ClientRequests } from '../../model/client-requests';
import { quoteInput } from '../../utils/quote-input';

/** @internal The most rounds of `input_required` one imported call answers (the SDK 2 client's own default). */
export const MAX_INPUT_ROUNDS = 10;
/** @internal The most input requests one `input_required` answer may carry: each may put a form before the user. */
export const MAX_INPUT_REQUESTS = 8;
/** The longest `requestState` echoed back to the server, in characters. */
const MAX_REQUEST_STATE_CHARS = 256 * 1024;

/** @internal What a 2026-07-28 server asked for in an `input_required` answer. */
export interface InputRequired {
  readonly inputRequests: Readonly<Record<string, unknown>>;
  readonly requestState?: string | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * @internal The `input_required` answer the SDK 2 client handed back (`allowInputRequired`), or
 * `undefined` for a complete result.
 *
 * @throws Error when its `requestState` is not a string or longer than 256 KiB.
 */
export function inputRequiredOf(answer: unknown): InputRequired | undefined {
  if (!isObject(answer) || answer.resultType !== 'input_required') return undefined;
  const { requestState } = answer;
  if (requestState !== undefined && (typeof requestState !== 'string' || requestState.length > MAX_REQUEST_STATE_CHARS)) {
    throw new Error(`the server's input_required answer has a requestState that is not a string of at most ${MAX_REQUEST_STATE_CHARS} characters`);
  }
  return { inputRequests: isObject(answer.inputRequests) ? answer.inputRequests : {}, ...(requestState !== undefined ? { requestState } : {}) };
}

/** A form-mode elicitation's message and form; anything else MCP elicitation carries is not passed on. */
function elicitationOf(params: Record<string, unknown>): ElicitationRequest {
  if (params.mode !== undefined && params.mode !== 'form') {
    throw new Error(`the server asked for an elicitation in ${quoteInput(String(params.mode))} mode; an imported tool forwards form elicitations only`);
  }
  return { message: params.message, requestedSchema: params.requestedSchema } as ElicitationRequest;
}

/** A sampling request's fields toolwright's `SamplingRequest` has. */
function samplingOf(params: Record<string, unknown>): SamplingRequest {
  const { messages, maxTokens, systemPrompt, temperature, stopSequences, modelPreferences, includeContext, metadata } = params;
  const optional = { systemPrompt, temperature, stopSequences, modelPreferences, includeContext, metadata };
  return { messages, maxTokens, ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)) } as SamplingRequest;
}

/**
 * @internal Answers the input requests of one `input_required` round, one after the other,
 * through the importing call's own {@link ClientRequests} (`ctx.client`): `elicitation/create`
 * (form mode) with `elicit`, `sampling/createMessage` with `createMessage`, which check and redact
 * the request as for any tool and fail with `CLIENT_UNAVAILABLE` or `CLIENT_CAPABILITY_MISSING`
 * when the call has no client that can answer. `roots/list` has no counterpart in toolwright.
 *
 * @throws Error for more than {@link MAX_INPUT_REQUESTS} requests, an entry that is not a
 *   request, `roots/list`, an URL-mode elicitation or an unknown method; what `ClientRequests`
 *   throws.
 */
export async function answerInputRequests(inputRequests: Readonly<Record<string, unknown>>, ctx: ToolCallContext): Promise<Record<string, unknown>> {
  const entries = Object.entries(inputRequests);
  if (entries.length === 0) return {};
  if (entries.length > MAX_INPUT_REQUESTS) throw new Error(`the server asked for ${entries.length} inputs in one round; an imported tool answers at most ${MAX_INPUT_REQUESTS}`);
  const client = ctx.client ?? new ClientRequests();
  const answers: Record<string, unknown> = {};
  for (const [key, entry] of entries) {
    const method = isObject(entry) ? entry.method : undefined;
    const params = isObject(entry) && isObject(entry.params) ? entry.params : {};
    ctx.signal.throwIfAborted();
    if (method === 'elicitation/create') answers[key] = await client.elicit(elicitationOf(params), { signal: ctx.signal });
    else if (method === 'sampling/createMessage') answers[key] = await client.createMessage(samplingOf(params), { signal: ctx.signal });
    else if (method === 'roots/list') throw new Error('the server asked for roots/list, which an imported tool cannot answer (toolwright has no roots)');
    else throw new Error(`the server's input request ${quoteInput(key)} is not an elicitation or sampling request (method ${quoteInput(String(method))})`);
  }
  return answers;
}
