import type { ContextResolver, ToolCallContext } from '../model/agent-tool';
import { ClientRequests } from '../model/client-requests';
import { ToolExecutionContext, type ContextKey } from '../model/execution-context';
import { chainLookup } from '../di/context-chain';
import { isContainerPreset } from '../di/container-preset';
import { getBound } from '../di/services';
import { ToolkitError, describeThrown } from '../errors/toolkit-error';
import { describeAbort, unwatchAbort, watchAbort } from '../executor/call/abort-watch';
import type { ExecutorParts } from '../executor/executor-parts';
import { presetSecretsOf } from '../executor/presets/preset-secrets';
import { collectSecrets, redactDeep, type Scrub } from '../executor/presets/redact';
import type { CatalogEntry } from './catalog-entry';
import type { CatalogCallOptions } from './catalog-types';

/** @internal What reading a resource or getting a prompt needs of the toolkit. */
export type MemberRunParts = Pick<ExecutorParts, 'container' | 'context' | 'deadlines' | 'defaults' | 'validators' | 'report' | 'clientRequests'>;

/** @internal What a method returned, and the redaction its output needs (`undefined`: nothing to redact). */
export interface MemberOutput {
  readonly value: unknown;
  readonly scrub: Scrub | undefined;
}

/** How a catalog member reads in messages: `resource 'readme'`, `prompt 'review'`. */
export function describeMember(entry: CatalogEntry): string {
  return `${entry.kind === 'prompt' ? 'prompt' : 'resource'} '${entry.name}'`;
}

/** @internal The context chain of a read: the call's over the agent's over the toolkit's, then the container. */
export function contextResolver(parts: MemberRunParts, options: CatalogCallOptions): ContextResolver {
  let merged: ToolExecutionContext | undefined;
  return {
    get<T>(key: ContextKey<T>): T | undefined {
      if ((key as unknown) === ToolExecutionContext) return (merged ??= ToolExecutionContext.merge(parts.context, options.agentContext, options.context)) as T;
      return chainLookup(key, options.context, options.agentContext, parts.context, parts.container);
    },
  };
}

/**
 * @internal Bounds a piece of work by the caller's signal and a timeout: `signal` fires on
 * either, and {@link settle} rejects with `ABORTED` or `TIMEOUT` at once, whatever the work does
 * later. Leaves no timer and no listener behind.
 */
export class Bounded {
  private readonly controller = new AbortController();
  /** The timeout's deadline while it is armed: all this needs of it is to cancel it. */
  private deadline: { cancel(): void } | undefined;
  private fail: ((error: ToolkitError) => void) | undefined;

  constructor(
    parts: MemberRunParts,
    private readonly what: string,
    private readonly timeoutMs: number,
    private readonly caller: AbortSignal | undefined,
  ) {
    if (caller?.aborted) throw new ToolkitError('ABORTED', `${what} was aborted: ${describeAbort(caller)}`);
    if (caller !== undefined) watchAbort(caller, this);
    if (timeoutMs > 0) this.deadline = parts.deadlines.schedule(timeoutMs, this);
  }

  /** Fires when the caller aborts or the time is up. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** `work`, or the rejection of the abort or timeout that came first. */
  settle<T>(work: () => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.controller.signal.aborted) return reject(this.controller.signal.reason as ToolkitError);
      this.fail = reject;
      try {
        Promise.resolve(work()).then(resolve, reject);
      } catch (error) {
        reject(error);
      }
    }).finally(() => this.end());
  }

  /** @internal The caller's signal aborted. */
  onCallerAbort(): void {
    this.stop(new ToolkitError('ABORTED', `${this.what} was aborted: ${describeAbort(this.caller!)}`));
  }

  /** @internal The timeout passed. */
  onDeadline(): void {
    this.deadline = undefined;
    this.stop(new ToolkitError('TIMEOUT', `${this.what} timed out after ${this.timeoutMs} ms.`));
  }

  private stop(error: ToolkitError): void {
    this.end();
    this.controller.abort(error);
    this.fail?.(error);
  }

  private end(): void {
    this.deadline?.cancel();
    this.deadline = undefined;
    if (this.caller !== undefined) unwatchAbort(this.caller, this);
  }
}

/** Faults that keep their own code; anything else a method throws is `EXECUTION_FAILED`. */
const PASSED_ON: ReadonlySet<string> = new Set(['PRESET_UNBOUND', 'CONTEXT_MISSING', 'TIMEOUT', 'ABORTED', 'CLIENT_UNAVAILABLE', 'CLIENT_CAPABILITY_MISSING', 'CLIENT_REQUEST_FAILED']);

/** The timeout of a member: its own, else the toolkit's default (`0`: none). */
export function timeoutOf(parts: MemberRunParts, entry: CatalogEntry): number {
  return entry.descriptor.timeoutMs ?? parts.defaults.timeoutMs;
}

/**
 * @internal Runs the method of a resource or prompt with `values` (validated, typed) for its
 * visible arguments: presets resolved (values, functions, `fromContainer`), context objects
 * injected by type, the `AbortSignal` of the read, a `ClientRequests` asking `options.client`
 * (else the toolkit's `clientRequests`), under the member's timeout. Rejects with a
 * `ToolkitError` whose text holds no preset value: `CONTEXT_MISSING`, `EXECUTION_FAILED`,
 * `TIMEOUT`, `ABORTED`.
 */
export async function runMember(parts: MemberRunParts, entry: CatalogEntry, values: Record<string, unknown>, options: CatalogCallOptions, sessionId: string | undefined): Promise<MemberOutput> {
  const what = entry.kind === 'prompt' ? `Getting prompt '${entry.name}'` : `Reading resource '${entry.name}'`;
  const bounded = new Bounded(parts, what, timeoutOf(parts, entry), options.signal);
  const resolver = contextResolver(parts, options);
  const book = entry.presets !== undefined ? presetSecretsOf(entry) : undefined;
  const own = new Set<string>();
  const scrub = (): Scrub | undefined => book?.scrub(own);
  try {
    const value = await bounded.settle(async () => {
      const presets = new Map<string, unknown>();
      const ctx: ToolCallContext = {
        callId: `${entry.kind}:${entry.name}`,
        toolName: entry.name,
        signal: bounded.signal,
        sessionId,
        attempt: 1,
        context: resolver,
        emit: () => undefined,
      };
      for (const { name, value: preset } of entry.presets ?? []) {
        const resolved: unknown = await (typeof preset === 'function' ? (preset as (c: ToolCallContext) => unknown)(ctx) : isContainerPreset(preset) ? getBound(parts.container, preset.token) : preset);
        collectSecrets(resolved, own);
        presets.set(name, resolved);
      }
      book?.remember(own);
      if (bounded.signal.aborted) return undefined; // timed out or aborted while presets resolved: the method never runs
      const args = entry.descriptor.params.map((param) => {
        switch (param.kind) {
          case 'model':
            return presets.has(param.name) ? presets.get(param.name) : values[param.name] === undefined ? param.default : values[param.name];
          case 'signal':
            return bounded.signal;
          case 'client':
            return new ClientRequests(options.client ?? parts.clientRequests, {
              toolName: entry.name,
              asker: describeMember(entry).replace(/^./, (c) => c.toUpperCase()),
              signal: bounded.signal,
              redact: (request) => {
                const redact = scrub();
                return redact === undefined ? request : redactDeep(request, redact);
              },
            });
          default: {
            const found = resolver.get(param.type!);
            if (found === undefined) {
              throw new ToolkitError('CONTEXT_MISSING', `${describeMember(entry)} needs a ${param.typeName} context value, but none was provided: register one on the call or the toolkit, or bind it in the container.`);
            }
            return found;
          }
        }
      });
      const method = (entry.instance as Record<string, (...a: unknown[]) => unknown>)[entry.descriptor.methodName];
      return method.apply(entry.instance, args);
    });
    return { value, scrub: scrub() };
  } catch (error) {
    const redact = scrub();
    if (ToolkitError.is(error) && PASSED_ON.has(error.code)) throw redact === undefined ? error : new ToolkitError(error.code, redact(error.message));
    throw new ToolkitError('EXECUTION_FAILED', `${what} failed: ${describeThrown(error, redact)}`);
  }
}
