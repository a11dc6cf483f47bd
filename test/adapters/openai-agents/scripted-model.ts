import { Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';

/** What the scripted model answers with on one turn: function calls, or a final text. */
export type Turn = { readonly calls: readonly { readonly name: string; readonly arguments: string; readonly callId?: string }[] } | { readonly text: string };

/** The function tools a request offered, by name. */
export function offered(request: ModelRequest): Map<string, { parameters: unknown; strict: boolean }> {
  const map = new Map<string, { parameters: unknown; strict: boolean }>();
  for (const tool of request.tools) if (tool.type === 'function') map.set(tool.name, { parameters: tool.parameters, strict: tool.strict });
  return map;
}

/** The outputs of the function calls the model gets back in a request, by call id. */
export function outputs(request: ModelRequest): Map<string, string> {
  const map = new Map<string, string>();
  if (typeof request.input === 'string') return map;
  for (const item of request.input) {
    if (item.type !== 'function_call_result') continue;
    const output: unknown = item.output;
    const text = typeof output === 'object' && output !== null && 'text' in output ? output.text : output;
    map.set(item.callId, typeof text === 'string' ? text : JSON.stringify(output));
  }
  return map;
}

let ids = 0;

/**
 * An Agents SDK `Model` driven by a script: `respond` sees each request (the tools offered, the
 * results so far) and answers with the next turn. Every request is recorded.
 */
export class ScriptedAgentsModel implements Model {
  readonly requests: ModelRequest[] = [];

  constructor(private readonly respond: (request: ModelRequest, turn: number) => Turn) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.respond(request, this.requests.length);
    const output: ModelResponse['output'] =
      'text' in turn
        ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text }] }]
        : turn.calls.map((call) => {
            const callId = call.callId ?? `call_${++ids}`;
            return { type: 'function_call', name: call.name, callId, id: `fc_${callId}`, status: 'completed', arguments: call.arguments };
          });
    return { usage: new Usage(), output };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('ScriptedAgentsModel does not stream');
  }
}
