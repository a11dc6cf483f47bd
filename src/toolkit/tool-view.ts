import type { Observable } from 'rxjs';
import type { AgentTool } from '../common/agent-tool';
import type { ToolCall, ToolResult, ToolSchema } from '../common/tool-types';
import { runBatch } from '../executor/batch';
import { CallRun, type CallOptions, type ExecutorCore } from '../executor/call-executor';
import { ToolkitError } from '../errors';
import {
  lowerToolSchemas,
  type LoweringOptions,
  type LoweringResult,
  type ProviderName,
  type ProviderToolDefinitionMap,
} from '../schema/lowering';
import type { ActivationState } from './activation';

/** A group and whether it is on in this view. */
export interface ToolGroupState {
  name: string;
  description: string;
  active: boolean;
}

/** @internal What a view needs from its toolkit beyond the executor core. */
export interface ViewHost {
  readonly core: ExecutorCore;
  readonly parallel: boolean;
  readonly maxConcurrency: number;
  /** Called after a view changed its groups or skill. */
  viewChanged(state: ActivationState): void;
  activateSkill(state: ActivationState, name: string): Promise<void>;
  deactivateSkill(state: ActivationState): Promise<void>;
}

/**
 * The per-view half of the toolkit API, shared by `Toolkit` (the default view) and
 * `ToolkitSession` (one session's view): what is enabled, the definitions, and calling tools.
 */
export abstract class ToolView {
  /** @internal */
  protected constructor(
    /** @internal */ protected readonly host: ViewHost,
    /** @internal */ protected readonly state: ActivationState,
  ) {}

  /** The session this view belongs to (`undefined` for the toolkit's own view). */
  get sessionId(): string | undefined {
    return this.state.sessionId;
  }

  /** The enabled tools (active groups, ungrouped tools, the active skill's scope). */
  getActiveTools(): AgentTool[] {
    return this.state.activeTools();
  }

  /** The enabled tools as an Observable: the current list at once, then every change. */
  get activeTools$(): Observable<AgentTool[]> {
    return this.state.activeTools$;
  }

  /** `{ name, description, parameters }` of each enabled tool (presets never appear). */
  getToolSchemas(): ToolSchema[] {
    return this.state.toolSchemas();
  }

  /** The groups and whether each is on in this view. */
  getToolGroups(): ToolGroupState[] {
    return this.state.groupStates();
  }

  /** The names of the active groups. */
  getActiveGroups(): string[] {
    return [...this.state.activeGroups];
  }

  /**
   * Switches groups on or off in this view.
   *
   * @throws ToolkitError `UNKNOWN_GROUP` when a name is not a group.
   */
  updateToolGroups(names: readonly string[], active: boolean): void {
    const known = new Set(this.state.groupStates().map((g) => g.name));
    const unknown = names.filter((n) => !known.has(n));
    if (unknown.length) {
      throw new ToolkitError(
        'UNKNOWN_GROUP',
        `Unknown tool group(s): ${unknown.map((n) => `'${n}'`).join(', ')}. Known groups: ${[...known].join(', ') || '(none)'}; create one with toolkit.createToolGroup(name, description, active).`,
      );
    }
    let changed = false;
    for (const name of names) {
      if (active === this.state.activeGroups.has(name)) continue;
      if (active) this.state.activeGroups.add(name);
      else this.state.activeGroups.delete(name);
      changed = true;
    }
    if (changed) this.host.viewChanged(this.state);
  }

  /**
   * The enabled tools as a provider's definitions, cached until the enabled set changes.
   *
   * @throws ToolkitError `INVALID_NAME` / `INVALID_DEFINITION` when a tool cannot be expressed for the provider.
   */
  toProviderDefs<P extends ProviderName>(provider: P, options: LoweringOptions = {}): ProviderToolDefinitionMap[P][] {
    return this.lowerTools(provider, options).definitions;
  }

  /** The provider definitions together with the report of what the lowering changed per tool. */
  lowerTools<P extends ProviderName>(provider: P, options: LoweringOptions = {}): LoweringResult<ProviderToolDefinitionMap[P]> {
    return this.state.cachedDefs(`${provider}|${options.strict === true}`, () =>
      lowerToolSchemas(this.state.toolSchemas(), provider, options),
    );
  }

  /**
   * Runs one call. Never rejects for call-time faults: they come back as `isError` results.
   *
   * @example
   * const result = await toolkit.callTool({ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' });
   */
  callTool(call: ToolCall, options: CallOptions = {}): Promise<ToolResult> {
    const withSession = this.state.sessionId !== undefined && options.sessionId === undefined ? { ...options, sessionId: this.state.sessionId } : options;
    return new CallRun(this.host.core, this.state, call, withSession).run();
  }

  /** Runs a batch (in parallel up to `maxConcurrency`, sequential tools in order); results in call order. */
  callTools(calls: readonly ToolCall[], options: CallOptions = {}): Promise<ToolResult[]> {
    const registry = this.host.core.registry;
    return runBatch(calls, {
      parallel: this.host.parallel,
      maxConcurrency: this.host.maxConcurrency,
      isSequential: (call) => registry.get(call.name)?.behaviour.concurrency === 'sequential',
      run: (call) => this.callTool(call, options),
    });
  }

  /** The active skill's name in this view. */
  get activeSkill(): string | undefined {
    return this.state.skill?.name;
  }

  /**
   * Activates a skill in this view: only its tools (plus global tools) stay enabled.
   *
   * @throws ToolkitError `UNKNOWN_SKILL`
   */
  activateSkill(name: string): Promise<void> {
    return this.host.activateSkill(this.state, name);
  }

  /** Deactivates the active skill, restoring the previous tool set. */
  deactivateSkill(): Promise<void> {
    return this.host.deactivateSkill(this.state);
  }
}
