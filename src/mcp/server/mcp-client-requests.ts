import type { ValidateFunction } from 'ajv';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ElicitResult,
  type ListRootsResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationRequest, ElicitationResult, ElicitationSchema, ElicitationValue, RootsResult, SamplingRequest, SamplingResult } from '../../model/client-request-types';
import type { ClientCapability, ClientRequestHandler, ClientRequestOptions } from '../../model/client-requests';
import type { JsonSchema } from '../../model/json-schema';
import { boundInput, quoteInput } from '../../utils/quote-input';
import { describeAjvErrors, ProblemList, SchemaValidators } from '../../executor/validation/validation';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Default of `McpServerOptions.clientRequestTimeoutMs`: 10 minutes (a person may be answering). */
export const DEFAULT_CLIENT_REQUEST_TIMEOUT_MS = 10 * 60_000;
/** The most schema problems an invalid answer's error lists. */
const MAX_ISSUES = 5;

/**
 * @internal The validators of elicitation forms, each form compiled once: what checks a user's
 * answer, whichever way it arrived (a 2025-11-25 `elicitation/create` response, or a 2026-07-28
 * `inputResponses` entry).
 */
export class FormValidators {
  private validators: SchemaValidators | undefined;
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  /** The validation function of a form. */
  validatorOf(schema: ElicitationSchema): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      validate = (this.validators ??= new SchemaValidators()).compile(schema as unknown as JsonSchema);
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}

/**
 * @internal What the requests of one connection share: the server (the client's capabilities),
 * the default timeout, and the validators of elicitation forms.
 */
export class McpClientLink extends FormValidators {
  constructor(
    readonly server: Server,
    readonly timeoutMs: number,
  ) {
    super();
  }
}

/**
 * @internal The shape of an untrusted sampling answer, checked with the SDK's schema: only the
 * fields MCP defines. Throws an Error that says what is wrong (size-bounded).
 */
export function samplingAnswerOf(raw: unknown): SamplingResult {
  const parsed = CreateMessageResultSchema.safeParse(raw);
  if (!parsed.success) throw invalidAnswer('sampling result', parsed.error) as Error;
  return samplingResultOf(parsed.data);
}

/** @internal The shape of an untrusted roots answer, checked with the SDK's schema: only `uri` and `name` of each root. */
export function rootsAnswerOf(raw: unknown): RootsResult {
  const parsed = ListRootsResultSchema.safeParse(raw);
  if (!parsed.success) throw invalidAnswer('roots result', parsed.error) as Error;
  return rootsResultOf(parsed.data);
}

/** @internal The shape of an untrusted elicitation answer, checked with the SDK's schema (not yet against its form). */
export function elicitationShapeOf(raw: unknown): ElicitResult {
  const parsed = ElicitResultSchema.safeParse(raw);
  if (!parsed.success) throw invalidAnswer('elicitation result', parsed.error) as Error;
  return parsed.data;
}

/**
 * @internal What the tool sees of a well-shaped elicitation answer: accepted content checked
 * against the requested form, holding only its fields. Throws an Error listing the problems.
 */
export function elicitationAnswerOf(forms: FormValidators, request: ElicitationRequest, answer: ElicitResult): ElicitationResult {
  if (answer.action !== 'accept') return { action: answer.action };
  const content = answer.content ?? {};
  const validate = forms.validatorOf(request.requestedSchema);
  if (!validate(content)) {
    const problems = new ProblemList();
    describeAjvErrors(validate.errors ?? [], content, problems);
    throw new Error(`the user's answer does not match the requested form:\n${problems.toText()}`);
  }
  // only the fields the tool asked for
  const fields: Record<string, ElicitationValue> = {};
  for (const name of Object.keys(request.requestedSchema.properties)) {
    if (Object.prototype.hasOwnProperty.call(content, name)) fields[name] = content[name] as ElicitationValue;
  }
  return { action: 'accept', content: fields };
}

/**
 * @internal A tool's requests to the MCP client of one `tools/call`: sent as requests related to
 * that call (over HTTP on the call's own stream), cancelled by the call's signal, bounded by a
 * timeout. What the (untrusted) client answers is checked before the tool sees it: the SDK's
 * schemas for the shape; for elicitation the requested form (toolwright's validator), keeping only
 * its fields. A failure is an Error whose message says what was wrong, size-bounded.
 */
export class McpClientRequests implements ClientRequestHandler {
  constructor(
    protected readonly link: McpClientLink,
    protected readonly extra: Extra,
  ) {}

  get description(): string {
    const name = this.link.server.getClientVersion()?.name;
    return typeof name === 'string' ? `the MCP client ${quoteInput(name)}` : 'the MCP client';
  }

  supports(capability: ClientCapability): boolean {
    const capabilities = this.link.server.getClientCapabilities();
    if (capability === 'sampling') return capabilities?.sampling !== undefined;
    if (capability === 'roots') return capabilities?.roots !== undefined;
    const elicitation = capabilities?.elicitation;
    // an empty `elicitation: {}` means form mode (the SDK normalises it to `{ form: {} }`)
    return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
  }

  async createMessage(request: SamplingRequest, options: ClientRequestOptions): Promise<SamplingResult> {
    const params = request as unknown as CreateMessageRequest['params'];
    const answer = await this.extra
      .sendRequest({ method: 'sampling/createMessage', params }, CreateMessageResultSchema, this.settings(options))
      .catch((error: unknown) => Promise.reject(invalidAnswer('sampling result', error)));
    return samplingResultOf(answer);
  }

  async elicit(request: ElicitationRequest, options: ClientRequestOptions): Promise<ElicitationResult> {
    const params = request as unknown as ElicitRequestFormParams;
    const answer = await this.extra
      .sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema, this.settings(options))
      .catch((error: unknown) => Promise.reject(invalidAnswer('elicitation result', error)));
    return elicitationAnswerOf(this.link, request, answer);
  }

  async listRoots(options: ClientRequestOptions): Promise<RootsResult> {
    const answer = await this.extra
      .sendRequest({ method: 'roots/list' }, ListRootsResultSchema, this.settings(options))
      .catch((error: unknown) => Promise.reject(invalidAnswer('roots result', error)));
    return rootsResultOf(answer);
  }

  /** Closes the call's SSE stream when the transport offers it (Streamable HTTP with an event store, a 2025-11-25 client). */
  closeStream(): boolean {
    const close = this.extra.closeSSEStream;
    if (close === undefined) return false;
    close();
    return true;
  }

  private settings(options: ClientRequestOptions): { signal: AbortSignal; timeout: number } {
    return { signal: options.signal, timeout: options.timeoutMs ?? this.link.timeoutMs };
  }
}

/** A valid sampling answer with only the fields MCP defines. */
function samplingResultOf(answer: CreateMessageResult): SamplingResult {
  const content = answer.content;
  const result: { -readonly [K in keyof SamplingResult]: SamplingResult[K] } = {
    role: answer.role,
    content: content.type === 'text' ? { type: 'text', text: content.text } : { type: content.type, data: content.data, mimeType: content.mimeType },
    model: answer.model,
  };
  if (answer.stopReason !== undefined) result.stopReason = answer.stopReason;
  return result;
}

/** A valid roots answer with only the fields MCP defines. */
function rootsResultOf(answer: ListRootsResult): RootsResult {
  return { roots: answer.roots.map((root) => (root.name !== undefined ? { uri: root.uri, name: root.name } : { uri: root.uri })) };
}

/** A rejected request as an Error that says why: a schema mismatch lists its first issues. */
function invalidAnswer(what: string, error: unknown): unknown {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues)) return error;
  const lines = issues.slice(0, MAX_ISSUES).map((issue: { path?: unknown; message?: unknown }) => {
    const path = Array.isArray(issue.path) && issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    return `- ${boundInput(path, 80)}: ${boundInput(String(issue.message), 160)}`;
  });
  if (issues.length > MAX_ISSUES) lines.push(`- … and ${issues.length - MAX_ISSUES} more`);
  return new Error(`the client's answer is not a valid ${what}:\n${lines.join('\n')}`);
}
