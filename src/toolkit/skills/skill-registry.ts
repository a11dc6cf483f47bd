import { ToolkitError, describeThrown } from '../../errors/toolkit-error';
import { closedError, type ActivationState } from '../activation';
import { EMPTY_GROUPS } from '../availability';
import { checkSkill, type SkillDefinition } from './skill-definition';
import type { Registry } from '../registry';
import type { ToolView } from '../tool-view';

/** @internal A registered skill with what the toolkit derives from it once. */
export interface SkillRecord {
  readonly skill: SkillDefinition;
  /** Tools enabled while it is active, and callable by its run. */
  readonly scope: ReadonlySet<string>;
  /** The groups its definition grants (`grantGroups`). */
  readonly grants: ReadonlySet<string>;
  readonly executable: boolean;
}

const noop = (): void => undefined;

/**
 * @internal The skills of one toolkit and their activation per view. Activation changes the
 * view synchronously (subscribers see the new tool list before `activateSkill` returns); the
 * `onActivate` / `onDeactivate` hooks of one view run after that, one at a time, in order.
 */
export class SkillRegistry {
  private readonly records = new Map<string, SkillRecord>();
  private activations = 0;

  /** `registry`: the registered tools, for a skill's required ones. */
  constructor(private readonly registry: Pick<Registry, 'has' | 'entries'>) {}

  /**
   * Checks and adds a skill. The caller then rebuilds the meta tools, and {@link forget}s the
   * skill again when that fails.
   */
  register(skill: SkillDefinition): void {
    checkSkill(skill);
    if (this.records.has(skill.name)) {
      throw new ToolkitError('INVALID_DEFINITION', `Skill '${skill.name}' is already registered; skill names are unique.`);
    }
    this.checkRequired(skill, 'register');
    const scope = new Set<string>([...skill.tools, ...(skill.requiredTools ?? []), ...(skill.steps ?? []).map((s) => s.tool)]);
    const grants: ReadonlySet<string> = skill.grantGroups?.length ? new Set(skill.grantGroups) : EMPTY_GROUPS;
    this.records.set(skill.name, Object.freeze({ skill, scope, grants, executable: skill.run !== undefined || skill.steps !== undefined }));
  }

  /** Removes a skill just registered (its meta tools could not follow). */
  forget(name: string): void {
    this.records.delete(name);
  }

  list(): SkillDefinition[] {
    return [...this.records.values()].map((r) => r.skill);
  }

  all(): IterableIterator<SkillRecord> {
    return this.records.values();
  }

  get(name: string): SkillRecord | undefined {
    return this.records.get(name);
  }

  /** @throws ToolkitError `MISSING_REQUIRED_TOOLS` */
  checkRequired(skill: SkillDefinition, when: 'register' | 'activate' | 'run'): void {
    const registry = this.registry;
    const missing = (skill.requiredTools ?? []).filter((t) => !registry.has(t));
    if (!missing.length) return;
    const list = missing.map((t) => `'${t}'`).join(', ');
    const names: string[] = [];
    for (const entry of registry.entries()) if (entry.source !== 'global') names.push(entry.name);
    const registered = names.join(', ') || '(none)';
    const message =
      when === 'register'
        ? `Skill '${skill.name}' requires tool(s) ${list} that are not registered. Register them (toolkit.registerTool) before the skill, or remove them from requiredTools. Registered tools: ${registered}.`
        : `Skill '${skill.name}' cannot ${when === 'run' ? 'run' : 'be activated'}: it requires tool(s) ${list} that are not registered any more. Registered tools: ${registered}.`;
    throw new ToolkitError('MISSING_REQUIRED_TOOLS', message);
  }

  /**
   * Activates `name` in a view, replacing its active skill (whose `onDeactivate` runs first).
   * Activating the active skill again changes nothing.
   */
  activate(view: ToolView, state: ActivationState, name: string): Promise<void> {
    let record: SkillRecord;
    try {
      if (state.closed) throw closedError(state.sessionId);
      const found = this.records.get(name);
      if (!found) {
        throw new ToolkitError('UNKNOWN_SKILL', `Unknown skill '${name}'. Skills: ${[...this.records.keys()].join(', ') || '(none)'}.`);
      }
      record = found;
      this.checkRequired(record.skill, 'activate');
    } catch (error) {
      return Promise.reject(error);
    }
    if (state.skill?.name === name) return state.hookChain ?? Promise.resolve();
    const previous = state.skill !== undefined ? this.records.get(state.skill.name)?.skill : undefined;
    const activation = ++this.activations;
    state.skill = { name, scope: record.scope, grants: record.grants, groups: EMPTY_GROUPS, activation };
    state.skillChanged(previous?.name);
    const { onActivate } = record.skill;
    const onDeactivate = previous?.onDeactivate;
    if (onActivate === undefined && onDeactivate === undefined) return state.hookChain ?? Promise.resolve();
    return this.queue(state, async () => {
      let failure: unknown;
      if (onDeactivate !== undefined) {
        try {
          await onDeactivate.call(previous, view);
        } catch (error) {
          failure = hookError(previous!.name, 'onDeactivate', error);
        }
      }
      if (onActivate !== undefined) {
        try {
          await onActivate.call(record.skill, view);
        } catch (error) {
          // undo this activation unless something changed the skill since
          if (state.skill?.activation === activation) {
            state.skill = undefined;
            state.skillChanged(name);
          }
          failure ??= hookError(name, 'onActivate', error, ' The skill was deactivated again.');
        }
      }
      if (failure !== undefined) throw failure;
    });
  }

  /**
   * Puts back a skill layer a view had before (a conversation restored from a server-signed
   * handle): the skill and the groups switched on during it, without running `onActivate` (it ran
   * when the skill was activated). `false`, and nothing changed, when the skill is gone or cannot
   * be activated any more (a required tool was unregistered).
   */
  restore(state: ActivationState, name: string, groups: ReadonlySet<string>): boolean {
    const record = this.records.get(name);
    if (record === undefined || state.closed || (record.skill.requiredTools ?? []).some((t) => !this.registry.has(t))) return false;
    state.skill = { name, scope: record.scope, grants: record.grants, groups, activation: ++this.activations };
    state.skillChanged(undefined);
    return true;
  }

  /** Deactivates the view's skill: its layer (groups switched on during it included) is dropped. */
  deactivate(view: ToolView, state: ActivationState): Promise<void> {
    if (state.closed) return Promise.reject(closedError(state.sessionId));
    const layer = state.skill;
    if (layer === undefined) return state.hookChain ?? Promise.resolve();
    state.skill = undefined;
    state.skillChanged(layer.name);
    const skill = this.records.get(layer.name)?.skill;
    const onDeactivate = skill?.onDeactivate;
    if (onDeactivate === undefined) return state.hookChain ?? Promise.resolve();
    return this.queue(state, async () => {
      try {
        await onDeactivate.call(skill, view);
      } catch (error) {
        throw hookError(layer.name, 'onDeactivate', error);
      }
    });
  }

  /** Runs `task` after the view's earlier hooks; the chain itself never rejects. */
  private queue(state: ActivationState, task: () => Promise<void>): Promise<void> {
    const run = (state.hookChain ?? Promise.resolve()).then(task);
    const chain = run.then(noop, noop);
    state.hookChain = chain;
    void chain.then(() => {
      if (state.hookChain === chain) state.hookChain = undefined;
    });
    return run;
  }
}

function hookError(skill: string, hook: string, error: unknown, more = ''): ToolkitError {
  return new ToolkitError('SKILL_FAILED', `Skill '${skill}': ${hook} failed because ${describeThrown(error)}.${more}`, { cause: error });
}
