import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { from, Observable, switchMap } from 'rxjs';
import { ToolExecutionContext } from '../model/execution-context';
import { Principal } from '../model/principal';
import { loadNestCommon } from './nest-peer';

/**
 * What the `principal` option of `ToolwrightModule.forRoot` receives: the request being handled
 * (Express's or Fastify's request object for HTTP; see {@link NestPrincipalSource}). Typed
 * loosely on purpose: annotate the parameter with your own request type.
 */
export interface NestCallerRequest {
  /** What an authentication guard (Passport's and most others) put on the request. */
  readonly user?: unknown;
  /** The request's headers (HTTP). */
  readonly headers?: unknown;
}

/**
 * The `principal` option of `ToolwrightModule.forRoot`: who the caller of the request being
 * handled is, as a `Principal` (or `undefined` for an anonymous request). Called once per request
 * (HTTP, GraphQL, WebSocket message, microservice message), after the guards, so `request.user`
 * is set. A callback that throws, rejects or returns anything but a `Principal` or `undefined`
 * refuses the request with a `403 ForbiddenException` before its handler runs.
 *
 * @example
 * const principal: NestPrincipalSource = (request: { user?: { sub: string; scopes: string[] } }) =>
 *   request.user && new Principal(request.user.sub, { scopes: request.user.scopes });
 */
export type NestPrincipalSource = {
  // a method signature: its parameter is checked bivariantly, so a callback may name its own request type
  callback(request: NestCallerRequest, context: ExecutionContext): Principal | undefined | null | Promise<Principal | undefined | null>;
}['callback'];

/**
 * @internal The callers of the requests in progress: the module's interceptor resolves the
 * request's principal and runs the handler with it in an `AsyncLocalStorage`, which the
 * module's toolkit reads as its ambient context (every call and list made while handling it).
 */
export class RequestCallers implements NestInterceptor {
  private readonly storage = new AsyncLocalStorage<ToolExecutionContext>();

  constructor(private readonly source: NestPrincipalSource | undefined) {}

  /** The caller of the request being handled, if the source found one. */
  current(): ToolExecutionContext | undefined {
    return this.storage.getStore();
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const source = this.source;
    if (source === undefined) return next.handle();
    return from(this.resolve(source, context)).pipe(
      switchMap((caller) =>
        caller === undefined ? next.handle() : new Observable<unknown>((subscriber) => this.storage.run(caller, () => next.handle().subscribe(subscriber))),
      ),
    );
  }

  private async resolve(source: NestPrincipalSource, context: ExecutionContext): Promise<ToolExecutionContext | undefined> {
    const { ForbiddenException } = loadNestCommon();
    let found: unknown;
    try {
      found = await source(requestOf(context), context);
    } catch (error) {
      const kind = error instanceof Error ? error.name : typeof error;
      throw new ForbiddenException(`toolwright: the principal callback threw (${kind.slice(0, 40)}), so the request was refused before its handler ran.`, { cause: error });
    }
    if (found === undefined || found === null) return undefined;
    if (!(found instanceof Principal)) {
      throw new ForbiddenException(
        `toolwright: the principal callback returned ${Array.isArray(found) ? 'an array' : typeof found} instead of a Principal or undefined, so the request was refused before its handler ran. ` +
          'Return new Principal(id, { scopes, claims }).',
      );
    }
    return ToolExecutionContext.of(found);
  }
}

/** The request of a Nest execution context, by its kind. */
function requestOf(context: ExecutionContext): NestCallerRequest {
  const type: string = context.getType();
  if (type === 'http') return context.switchToHttp().getRequest<NestCallerRequest>();
  if (type === 'graphql') return (context.getArgByIndex<{ req?: NestCallerRequest } | undefined>(2)?.req ?? {}) as NestCallerRequest;
  if (type === 'ws') return context.switchToWs().getClient<NestCallerRequest>();
  return context.switchToRpc().getContext<NestCallerRequest>();
}
