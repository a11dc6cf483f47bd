import type { AgentTool, StandardAgentTool } from '../model/agent-tool';
import type { Constructor } from '../metadata/records';
import type { PresetMap, PresetValue } from '../executor/presets/presets';

/** What can be registered: a tool service class, an instance of one, or an `AgentTool` object (its `parameters` a JSON Schema or a Standard Schema). */
export type ToolTarget = Constructor | object | AgentTool | StandardAgentTool;

/** Options of `registerTool`. */
export interface RegisterOptions {
  /** The group of every tool registered (overrides `@ToolService` and `@Tool` groups). */
  group?: string | undefined;
  /**
   * Hidden parameters by tool name, then parameter name. They vanish from every schema; the
   * model can never see or set them.
   */
  presets?: PresetMap | undefined;
}

/**
 * Fluent registration.
 *
 * @example
 * toolkit.registration().tool(EmailService).group('admin')
 *   .presetParameters({ send_email: { apiKey: process.env.EMAIL_API_KEY } }).apply();
 */
export class ToolRegistration {
  private readonly targets: ToolTarget[] = [];
  private options: RegisterOptions = {};

  /** @internal */
  constructor(private readonly register: (targets: readonly ToolTarget[], options: RegisterOptions) => AgentTool[]) {}

  /** Adds a class, instance or `AgentTool` to register. */
  tool(target: ToolTarget): this {
    this.targets.push(target);
    return this;
  }

  /** Puts every tool of this registration into `group`. */
  group(name: string): this {
    this.options = { ...this.options, group: name };
    return this;
  }

  /** Binds hidden parameters: `{ toolName: { paramName: value | () => value | fromContainer(token) } }`. */
  presetParameters(presets: Record<string, Record<string, PresetValue>>): this {
    const merged: PresetMap = { ...(this.options.presets ?? {}) };
    for (const [tool, values] of Object.entries(presets)) merged[tool] = { ...(merged[tool] ?? {}), ...values };
    this.options = { ...this.options, presets: merged };
    return this;
  }

  /**
   * Registers everything added, atomically: on a definition error nothing is registered.
   *
   * @returns the registered tools.
   * @throws ToolkitError on definition errors (see `registerTool`).
   */
  apply(): AgentTool[] {
    return this.register(this.targets, this.options);
  }
}
