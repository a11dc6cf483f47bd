import type { ElicitationRequest, ElicitationResult, RootsResult, SamplingRequest, SamplingResult } from '../../../model/client-request-types';
import type { ClientCapability, ClientRequestHandler, ClientRequestOptions } from '../../../model/client-requests';
import { elicitationAnswerOf, elicitationShapeOf, rootsAnswerOf, samplingAnswerOf, type FormValidators } from '../mcp-client-requests';
import { declaresCapability } from './replaying-client-requests';
import type { TaskRun } from './tasks-extension';

/**
 * @internal The {@link ClientRequestHandler} of a call that runs as a task of the tasks extension:
 * a question parks the task `input_required` (the request goes out in `inputRequests` on
 * `tasks/get`) and the call awaits the answer `tasks/update` delivers, on any process. The call is
 * not run again, so a tool body may ask whatever its side effects. What the (untrusted) client
 * answers is checked as on every path: the shape, and an elicitation's content against its form.
 */
export class TaskClientRequests implements ClientRequestHandler {
  constructor(
    private readonly task: TaskRun,
    /** What the client declared in the creating request's `_meta` (`io.modelcontextprotocol/clientCapabilities`). */
    private readonly capabilities: unknown,
    private readonly forms: FormValidators,
  ) {}

  get description(): string {
    return 'the MCP client';
  }

  supports(capability: ClientCapability): boolean {
    return declaresCapability(this.capabilities, capability);
  }

  async createMessage(request: SamplingRequest, options: ClientRequestOptions): Promise<SamplingResult> {
    return samplingAnswerOf(await this.ask('sampling/createMessage', request, options.signal));
  }

  async elicit(request: ElicitationRequest, options: ClientRequestOptions): Promise<ElicitationResult> {
    const raw = await this.ask('elicitation/create', { mode: 'form', ...request }, options.signal);
    return elicitationAnswerOf(this.forms, request, elicitationShapeOf(raw));
  }

  async listRoots(options: ClientRequestOptions): Promise<RootsResult> {
    return rootsAnswerOf(await this.ask('roots/list', {}, options.signal));
  }

  /** The client's answer to one request, or a rejection when the call's signal fires first. */
  private ask(method: string, params: object, signal: AbortSignal): Promise<unknown> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.task.requestInput({ method, params }).then(
        (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }
}
