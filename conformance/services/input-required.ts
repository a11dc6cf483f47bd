import { ClientRequests, Prompt, Tool, ToolService, type ElicitationSchema } from '../../src';

const NAME_FORM: ElicitationSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const CONFIRM_FORM: ElicitationSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
const CONTEXT_FORM: ElicitationSchema = { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] };
const READ_ONLY = { readOnly: true, idempotent: true } as const;

/**
 * The tools of the conformance suite's Multi Round-Trip Requests scenarios (2026-07-28), written
 * as a user writes them: questions through the injected `ClientRequests`, named with `key` where
 * the suite expects a name. Over 2026-07-28 each question ends a round (`input_required`) and the
 * tool runs again with the answers, so they are read-only. Each method's JSDoc names its scenario.
 */
@ToolService({ group: 'conformance' })
export class ConformanceInputRequiredService {
  /** `input-required-result-basic-elicitation`, `-result-type`, `-missing-input-response`. */
  @Tool({ name: 'test_input_required_result_elicitation', description: 'Asks the user for their name', annotations: READ_ONLY })
  async elicitation(client: ClientRequests): Promise<string> {
    const answer = await client.elicit<{ name: string }>({ message: 'What is your name?', requestedSchema: NAME_FORM }, { key: 'user_name' });
    return answer.action === 'accept' ? `Hello, ${answer.content?.name ?? ''}!` : `No name given (${answer.action})`;
  }

  /** `input-required-result-basic-sampling`. */
  @Tool({ name: 'test_input_required_result_sampling', description: 'Asks the client’s model a question', annotations: READ_ONLY })
  async sampling(client: ClientRequests): Promise<string> {
    const reply = await client.createMessage(
      { messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 },
      { key: 'capital_question' },
    );
    return reply.content.type === 'text' ? reply.content.text : `[${reply.content.type} content]`;
  }

  /** `input-required-result-request-state`: the retry's signed state was checked before the tool ran again. */
  @Tool({ name: 'test_input_required_result_request_state', description: 'Asks for a confirmation', annotations: READ_ONLY })
  async requestState(client: ClientRequests): Promise<string> {
    const answer = await client.elicit<{ ok: boolean }>({ message: 'Please confirm', requestedSchema: CONFIRM_FORM }, { key: 'confirm' });
    return `state-ok: confirmed=${String(answer.content?.ok ?? false)}`;
  }

  /** `input-required-result-multi-round`. */
  @Tool({ name: 'test_input_required_result_multi_round', description: 'Asks two questions, one after the other', annotations: READ_ONLY })
  async multiRound(client: ClientRequests): Promise<string> {
    const name = await client.elicit<{ name: string }>({ message: 'Step 1: What is your name?', requestedSchema: NAME_FORM }, { key: 'step1' });
    const color = await client.elicit<{ color: string }>(
      { message: 'Step 2: What is your favorite color?', requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] } },
      { key: 'step2' },
    );
    return `${name.content?.name ?? ''} likes ${color.content?.color ?? ''}`;
  }

  /** `input-required-result-tampered-state`. */
  @Tool({ name: 'test_input_required_result_tampered_state', description: 'Asks for a confirmation (its state is signed)', annotations: READ_ONLY })
  async tamperedState(client: ClientRequests): Promise<string> {
    const answer = await client.elicit<{ ok: boolean }>({ message: 'Please confirm', requestedSchema: CONFIRM_FORM }, { key: 'confirm' });
    return `confirmed=${String(answer.content?.ok ?? false)}`;
  }

  /** `input-required-result-capability-check`: asks only what the client declared it can answer. */
  @Tool({ name: 'test_input_required_result_capabilities', description: 'Asks the user, or else the client’s model', annotations: READ_ONLY })
  async capabilities(client: ClientRequests): Promise<string> {
    if (client.supports('elicitation')) {
      const answer = await client.elicit<{ name: string }>({ message: 'What is your name?', requestedSchema: NAME_FORM }, { key: 'user_name' });
      return `Hello, ${answer.content?.name ?? ''}!`;
    }
    if (!client.supports('sampling')) return 'The client can answer no question.';
    const reply = await client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 50 }, { key: 'greeting' });
    return reply.content.type === 'text' ? reply.content.text : `[${reply.content.type} content]`;
  }

  /** `input-required-result-basic-list-roots`: the tool's answer names the client's roots. */
  @Tool({ name: 'test_input_required_result_list_roots', description: 'Lists the client’s roots', annotations: READ_ONLY })
  async listRoots(client: ClientRequests): Promise<string> {
    const { roots } = await client.listRoots({ key: 'client_roots' });
    return `Roots: ${roots.map((root) => root.uri).join(', ') || '(none)'}`;
  }

  /** `input-required-result-multiple-input-requests`: three questions asked together go out in one round. */
  @Tool({ name: 'test_input_required_result_multiple_inputs', description: 'Asks the user, the client’s model and the client’s roots at once', annotations: READ_ONLY })
  async multipleInputs(client: ClientRequests): Promise<string> {
    const [user, reply, { roots }] = await Promise.all([
      client.elicit<{ name: string }>({ message: 'What is your name?', requestedSchema: NAME_FORM }, { key: 'user_name' }),
      client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 50 }, { key: 'greeting' }),
      client.listRoots({ key: 'client_roots' }),
    ]);
    const said = reply.content.type === 'text' ? reply.content.text : `[${reply.content.type} content]`;
    return `${user.content?.name ?? '(no name)'}; ${said}; ${roots.length} root(s)`;
  }

  /** `input-required-result-non-tool-request`: a prompt that asks the user before it renders. */
  @Prompt({ name: 'test_input_required_result_prompt', description: 'A prompt that asks the user for its context' })
  async promptAsking(client: ClientRequests): Promise<string> {
    const answer = await client.elicit<{ context: string }>({ message: 'What context should the prompt use?', requestedSchema: CONTEXT_FORM }, { key: 'user_context' });
    return `Use this context: ${answer.content?.context ?? `(none: ${answer.action})`}`;
  }

  /** `server-stateless` (SEP-2575): asks the client's model whether or not the request declared `sampling`; undeclared, the server answers -32021 (HTTP 400). */
  @Tool({ name: 'test_missing_capability', description: 'Asks the client’s model without checking it can be asked', annotations: READ_ONLY })
  async missingCapability(client: ClientRequests): Promise<string> {
    const reply = await client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 20 }, { key: 'hello' });
    return reply.content.type === 'text' ? reply.content.text : `[${reply.content.type} content]`;
  }
}
