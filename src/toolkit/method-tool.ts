import type { AgentTool, ToolBehaviour, ToolCallContext } from '../model/agent-tool';
import type { ObjectJsonSchema } from '../model/json-schema';
import { ClientRequests } from '../model/client-requests';
import { ToolEmitter } from '../model/tool-emitter';
import { ToolkitError } from '../errors';
import type { ParamDescriptor, ToolDescriptor } from '../schema/descriptor-builder';

/**
 * The {@link AgentTool} of one decorated method: it fills each parameter by its kind (model
 * argument or preset by name, context object by class, emitter, signal, client requests) and calls the method on
 * the service instance.
 */
export class MethodTool implements AgentTool {
  readonly name: string;
  readonly description: string;
  readonly behaviour: ToolBehaviour;
  private readonly method: (...args: unknown[]) => unknown;

  constructor(
    readonly descriptor: ToolDescriptor,
    readonly parameters: ObjectJsonSchema,
    private readonly instance: object,
    behaviour: ToolBehaviour,
  ) {
    this.name = descriptor.name;
    this.description = descriptor.description;
    this.behaviour = behaviour;
    this.method = (instance as Record<string, (...args: unknown[]) => unknown>)[descriptor.methodName];
  }

  execute(args: Record<string, unknown>, ctx: ToolCallContext): unknown {
    const params = this.descriptor.params;
    const values = new Array<unknown>(params.length);
    for (let i = 0; i < params.length; i++) values[i] = this.valueFor(params[i], args, ctx);
    return this.method.apply(this.instance, values);
  }

  private valueFor(param: ParamDescriptor, args: Record<string, unknown>, ctx: ToolCallContext): unknown {
    switch (param.kind) {
      case 'model': {
        const value = args[param.name] === undefined ? param.default : args[param.name];
        return param.date ? toDates(value) : value;
      }
      case 'signal':
        return ctx.signal;
      case 'emitter': {
        // `emit` and `log` are bound: no wrapper needed for progress
        const log = ctx.log;
        return new ToolEmitter(
          ctx.emit,
          log && ((entry) => log(entry.level, entry.data, entry.logger)),
          () => ctx.client?.closeStream() === true,
        );
      }
      case 'client':
        return ctx.client ?? new ClientRequests(undefined, { toolName: this.name, signal: ctx.signal });
      case 'context': {
        const value = ctx.context.get(param.type!);
        if (value === undefined) {
          throw new ToolkitError(
            'CONTEXT_MISSING',
            `Tool '${this.name}' needs a ${param.typeName} context ${typeof param.type === 'function' ? 'object' : 'value'}, but none was provided. ` +
              `Register one with ToolExecutionContext.builder().register(${
                typeof param.type === 'function' ? `new ${param.typeName}(…)` : `${param.typeName}, value`
              }) on the call, the agent loop or the toolkit, or bind it in the container.`,
            { tool: this.name },
          );
        }
        return value;
      }
    }
  }
}

/** Validated date-time text (or an array of it) as `Date`s. */
function toDates(value: unknown): unknown {
  if (typeof value === 'string') return new Date(value);
  return Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? new Date(v) : v)) : value;
}
