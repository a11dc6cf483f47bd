import type { ContextResolver } from '../model/agent-tool';
import { ToolExecutionContext } from '../model/execution-context';
import { Principal } from '../model/principal';
import { describeContextKey, principalPlain, PRINCIPAL_NAME, rebuildContext, travelPlain, type TravellingContexts } from '../model/travelling-contexts';
import { ToolkitError } from '../errors';

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
    (out ??= {})[name] = travelPlain(
      key,
      value,
      (reason, cause) => new ToolkitError('INVALID_CONTEXT', `The ${describeContextKey(key)} context of a call of tool '${tool}' cannot be stored with its approval: ${reason}.`, { tool, cause }),
    );
  }
  const principal = context.get(Principal);
  if (principal instanceof Principal && !entries.some(([, key]) => key === Principal)) {
    const plain = principalPlain(principal);
    if (plain === undefined) throw new ToolkitError('INVALID_CONTEXT', `The claims of the principal of a call of tool '${tool}' cannot be stored with its approval: they are not JSON.`, { tool });
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
  return rebuildContext(values, declared, 'this manager does not declare (add it to the contexts option)', (why) => invalid(approvalId, why));
}
