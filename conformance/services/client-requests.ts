import { setTimeout as sleep } from 'node:timers/promises';
import { ClientRequests, Tool, ToolEmitter, ToolParam, ToolService, type ElicitationSchema } from '../../src';

/** `elicitation-sep1034-defaults`: a default value for every primitive type. */
const DEFAULTS_FORM: ElicitationSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
};

/** `elicitation-sep1330-enums`: the five enum variants of SEP-1330. */
const ENUMS_FORM: ElicitationSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

/**
 * The tools of the conformance suite's logging, sampling and elicitation scenarios, written as a
 * user writes them: a log through the injected `ToolEmitter`, requests to the client through the
 * injected `ClientRequests`. Each method's JSDoc names its scenario.
 */
@ToolService({ group: 'conformance' })
export class ConformanceClientRequestsService {
  /** `tools-call-with-logging`: three `info` messages, ~50 ms apart. */
  @Tool({ name: 'test_tool_with_logging', description: 'Sends three log messages while it runs' })
  async withLogging(emitter: ToolEmitter): Promise<string> {
    emitter.log('info', 'Tool execution started');
    await sleep(50);
    emitter.log('info', 'Tool processing data');
    await sleep(50);
    emitter.log('info', 'Tool execution completed');
    return 'Logging tool completed';
  }

  /** `tools-call-sampling`: asks the client's model; an error result when the client cannot sample. */
  @Tool({ name: 'test_sampling', description: 'Asks the client’s model to answer a prompt' })
  async sampling(@ToolParam({ name: 'prompt', description: 'The prompt to send to the LLM' }) prompt: string, client: ClientRequests): Promise<string> {
    const reply = await client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
    return `LLM response: ${reply.content.type === 'text' ? reply.content.text : `[${reply.content.type} content]`}`;
  }

  /** `tools-call-elicitation`: asks the client's user for a username and an email. */
  @Tool({ name: 'test_elicitation', description: 'Asks the user for their information' })
  async elicitation(@ToolParam({ name: 'message', description: 'The message to show the user' }) message: string, client: ClientRequests): Promise<string> {
    const answer = await client.elicit({
      message,
      requestedSchema: {
        type: 'object',
        properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
        required: ['username', 'email'],
      },
    });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  /** `elicitation-sep1034-defaults`. */
  @Tool({ name: 'test_elicitation_sep1034_defaults', description: 'Asks for a form whose fields have default values' })
  async elicitationDefaults(client: ClientRequests): Promise<string> {
    const answer = await client.elicit({ message: 'Please review and update the form fields with defaults', requestedSchema: DEFAULTS_FORM });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  /** `elicitation-sep1330-enums`. */
  @Tool({ name: 'test_elicitation_sep1330_enums', description: 'Asks for a form with every kind of enum field' })
  async elicitationEnums(client: ClientRequests): Promise<string> {
    const answer = await client.elicit({ message: 'Please select options from the enum fields', requestedSchema: ENUMS_FORM });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }
}
