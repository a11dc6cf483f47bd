import type { ContextResolver } from '../common/agent-tool';
import { ToolExecutionContext, type ContextKey } from '../common/execution-context';
import { isPlainObject } from '../common/plain-object';
import { Principal } from '../common/principal';
import type { TravellingContexts } from '../common/travelling-contexts';
import { ToolkitError } from '../errors';

/** The name a requester's {@link Principal} travels under unless the application declares it: only its `id`, `scopes` and `claims`. */
const PRINCIPAL_NAME = 'toolwright:principal';

type ClassTransformer = typeof import('class-transformer');
let transformer: ClassTransformer | undefined;

function classTransformer(): ClassTransformer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (transformer ??= require('class-transformer') as ClassTransformer);
}

function describeKey(key: ContextKey): string {
  return typeof key === 'function' ? key.name || '(anonymous class)' : String(key);
}

/**
 * @internal The requester's travelling context values of a held call, as plain JSON by declared
 * name, and its {@link Principal} (unless declared). `undefined` when nothing travels.
 *
 * @throws ToolkitError `INVALID_CONTEXT` when a declared value cannot become JSON: nothing is dropped silently.
 */
export function travellingValues(context: ContextResolver, declared: TravellingContexts | undefined, tool: string): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  const entries = Object.entries(declared ?? {});
  for (const [name, key] of entries) {
    const value = context.get(key);
    if (value === undefined) continue;
    let plain: unknown;
    try {
      plain = typeof key === 'function' ? classTransformer().instanceToPlain(value) : value;
      JSON.stringify(plain);
    } catch (error) {
      throw new ToolkitError('INVALID_CONTEXT', `The ${describeKey(key)} context of a call of tool '${tool}' cannot be stored with its approval: ${String((error as Error)?.message ?? error).slice(0, 200)}.`, {
        tool,
        cause: error,
      });
    }
    (out ??= {})[name] = plain;
  }
  const principal = context.get(Principal);
  if (principal instanceof Principal && !entries.some(([, key]) => key === Principal)) {
    const plain = { id: principal.id, scopes: [...principal.scopes], claims: principal.claims };
    try {
      JSON.stringify(plain);
    } catch (error) {
      throw new ToolkitError('INVALID_CONTEXT', `The claims of the principal of a call of tool '${tool}' cannot be stored with its approval: they are not JSON.`, { tool, cause: error });
    }
    (out ??= {})[PRINCIPAL_NAME] = plain;
  }
  return out;
}

function invalid(approvalId: string, why: string): ToolkitError {
  return new ToolkitError('INVALID_CONTEXT', `Approval '${approvalId}' cannot run: its stored context ${why}. The call did not run and stays pending.`);
}

/**
 * @internal The requester's context rebuilt from a stored record: each travelled value by its
 * declaration here, the principal from its plain fields. A stored record may hold anything: every
 * name must be declared here and every principal well-formed.
 *
 * @throws ToolkitError `INVALID_CONTEXT` naming what is wrong; nothing runs.
 */
export function rebuiltContext(approvalId: string, values: Readonly<Record<string, unknown>> | undefined, declared: TravellingContexts | undefined): ToolExecutionContext {
  if (values === undefined) return ToolExecutionContext.EMPTY;
  const builder = ToolExecutionContext.builder();
  for (const [name, plain] of Object.entries(values)) {
    const key = declared !== undefined && Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (key !== undefined) {
      builder.register(key, typeof key === 'function' ? classTransformer().plainToInstance(key as new () => object, plain) : plain);
      continue;
    }
    if (name !== PRINCIPAL_NAME) throw invalid(approvalId, `names a context '${name.slice(0, 60)}' that this manager does not declare (add it to the contexts option)`);
    const { id, scopes, claims } = (isPlainObject(plain) ? plain : {}) as Record<string, unknown>;
    if (typeof id !== 'string' || !Array.isArray(scopes) || (claims !== undefined && !isPlainObject(claims))) throw invalid(approvalId, 'holds a principal that is not { id, scopes, claims }');
    try {
      builder.register(Principal, new Principal(id, { scopes: scopes as string[], claims: claims as Record<string, unknown> | undefined }));
    } catch {
      throw invalid(approvalId, 'holds a principal with an empty id or scope');
    }
  }
  return builder.build();
}
