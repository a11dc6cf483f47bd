import type { ToolkitError } from '../errors';
import { ToolExecutionContext, type ContextKey, type ContextType } from './execution-context';
import { isPlainObject } from '../utils/plain-object';
import { Principal } from './principal';

/**
 * The context objects that travel with a call that runs elsewhere or later (a queued call, a call
 * held for approval in a shared store), by the name they travel under: a class (its instances are
 * stored as plain JSON with class-transformer's `instanceToPlain`, and rebuilt with
 * `plainToInstance`) or a token (its value is stored as JSON). Declare it once, in a module every
 * process imports.
 *
 * @example
 * export const travelling: TravellingContexts = { user: UserContext, tenant: TENANT_ID };
 */
export type TravellingContexts = Readonly<Record<string, ContextType | symbol | string>>;

/**
 * @internal The name a caller's {@link Principal} travels under unless the application declares
 * it. Only `id`, `scopes` and `claims` travel (never an `McpPrincipal`'s `authInfo`, which holds
 * the token).
 */
export const PRINCIPAL_NAME = 'toolwright:principal';

type ClassTransformer = typeof import('class-transformer');
let transformer: ClassTransformer | undefined;

/** class-transformer, loaded on first use: only class contexts that travel need it. */
function classTransformer(): ClassTransformer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (transformer ??= require('class-transformer') as ClassTransformer);
}

/** @internal A context key as messages name it. */
export function describeContextKey(key: ContextKey): string {
  return typeof key === 'function' ? key.name || '(anonymous class)' : String(key);
}

/**
 * @internal A context value as plain JSON: a class instance through class-transformer, a token's
 * value as it is; `fail(error)` makes the error thrown when it cannot become JSON.
 */
export function travelPlain(key: ContextKey, value: unknown, fail: (reason: string, cause: unknown) => ToolkitError): unknown {
  try {
    const plain = typeof key === 'function' ? classTransformer().instanceToPlain(value) : value;
    JSON.stringify(plain);
    return plain;
  } catch (error) {
    throw fail(String((error as Error)?.message ?? error).slice(0, 200), error);
  }
}

/** @internal A principal as plain JSON (`id`, `scopes`, `claims`), or `undefined` when its claims are not JSON. */
export function principalPlain(principal: Principal): Record<string, unknown> | undefined {
  const plain = { id: principal.id, scopes: [...principal.scopes], claims: principal.claims };
  try {
    JSON.stringify(plain);
    return plain;
  } catch {
    return undefined;
  }
}

/**
 * @internal A context rebuilt from travelled values: each by its declaration, the principal from
 * its plain fields. The values may come from anything that could write them: a name that is not
 * declared (`undeclared` says where to declare it), or a principal that is not
 * `{ id, scopes, claims }`, is `refuse(why)`.
 */
export function rebuildContext(
  values: Readonly<Record<string, unknown>> | undefined,
  declared: TravellingContexts | undefined,
  undeclared: string,
  refuse: (why: string) => ToolkitError,
): ToolExecutionContext {
  if (values === undefined) return ToolExecutionContext.EMPTY;
  const builder = ToolExecutionContext.builder();
  for (const [name, plain] of Object.entries(values)) {
    // own keys only: a name such as 'constructor' or '__proto__' is not Object or its prototype
    const key = declared !== undefined && Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (key !== undefined) {
      builder.register(key, typeof key === 'function' ? classTransformer().plainToInstance(key as new () => object, plain) : plain);
      continue;
    }
    if (name !== PRINCIPAL_NAME) throw refuse(`names a context '${name.slice(0, 60)}' that ${undeclared}`);
    const { id, scopes, claims } = (isPlainObject(plain) ? plain : {}) as Record<string, unknown>;
    if (typeof id !== 'string' || !Array.isArray(scopes) || (claims !== undefined && !isPlainObject(claims))) throw refuse('holds a principal that is not { id, scopes, claims }');
    try {
      builder.register(Principal, new Principal(id, { scopes: scopes as string[], claims: claims as Record<string, unknown> | undefined }));
    } catch {
      throw refuse('holds a principal with an empty id or a scope that is not a non-empty string');
    }
  }
  return builder.build();
}
