import type { AgentTool } from '../common/agent-tool';
import { ToolkitError } from '../errors';
import type { ActivationState } from './activation';
import type { ToolView } from './tool-view';

/**
 * A skill: a named scope of tools with instructions for the model. While a skill is active in a
 * view, only its tools (plus the toolkit's global meta tools) are enabled there.
 */
export interface SkillDefinition {
  /** Unique name. */
  readonly name: string;
  /** What the skill is for (shown by `list_skills`). */
  readonly description: string;
  /** The tools the skill enables. */
  readonly tools: readonly string[];
  /** Instructions returned to the model when the skill is invoked. */
  readonly instructions?: string;
  /** Tools that must be registered for the skill to work (checked at registration and activation). */
  readonly requiredTools?: readonly string[];
  /** Runs after the skill became active in `view`. */
  onActivate?(view: ToolView): void | Promise<void>;
  /** Runs after the skill was deactivated in `view`. */
  onDeactivate?(view: ToolView): void | Promise<void>;
}

/**
 * Defines a skill (a typed identity function: it checks the shape and freezes it).
 *
 * @example
 * const research = defineSkill({ name: 'research', description: 'Look things up',
 *   tools: ['web_search', 'fetch_page'], instructions: 'Cite every source.' });
 * toolkit.registerSkill(research);
 */
export function defineSkill<S extends SkillDefinition>(skill: S): Readonly<S> {
  if (!skill.name || !/^[a-zA-Z0-9_-]{1,64}$/.test(skill.name)) {
    throw new ToolkitError('INVALID_DEFINITION', `Skill name '${skill.name}' must be 1-64 letters, digits, '_' or '-'.`);
  }
  if (!skill.description) throw new ToolkitError('INVALID_DEFINITION', `Skill '${skill.name}' needs a description.`);
  return Object.freeze({ ...skill, tools: Object.freeze([...skill.tools]) });
}

/** @internal Hooks the skill registry needs from its toolkit. */
export interface SkillHost {
  registerGlobal(tools: AgentTool[]): void;
  changed(state: ActivationState): void;
  view(state: ActivationState): ToolView;
}

/** @internal The skills of one toolkit and their activation per view. */
export class SkillRegistry {
  private readonly skills = new Map<string, SkillDefinition>();
  private hasTool: (name: string) => boolean = () => false;

  constructor(private readonly host: SkillHost) {}

  register(skill: SkillDefinition, hasTool: (name: string) => boolean): void {
    if (this.skills.has(skill.name)) {
      throw new ToolkitError('INVALID_DEFINITION', `Skill '${skill.name}' is already registered.`);
    }
    this.hasTool = hasTool;
    this.checkRequired(skill);
    const first = this.skills.size === 0;
    this.skills.set(skill.name, skill);
    if (first) this.host.registerGlobal(this.metaTools());
  }

  list(): SkillDefinition[] {
    return [...this.skills.values()];
  }

  get(name: string): SkillDefinition | undefined {
    return this.skills.get(name);
  }

  private checkRequired(skill: SkillDefinition): void {
    const missing = (skill.requiredTools ?? []).filter((t) => !this.hasTool(t));
    if (missing.length) {
      throw new ToolkitError(
        'INVALID_DEFINITION',
        `Skill '${skill.name}' requires tool(s) ${missing.map((t) => `'${t}'`).join(', ')} that are not registered. Register them before the skill.`,
      );
    }
  }

  async activate(state: ActivationState, name: string): Promise<void> {
    const skill = this.skills.get(name);
    if (!skill) {
      throw new ToolkitError('UNKNOWN_SKILL', `Unknown skill '${name}'. Skills: ${[...this.skills.keys()].join(', ') || '(none)'}.`);
    }
    this.checkRequired(skill);
    if (state.skill?.name === name) return;
    if (state.skill) await this.deactivate(state);
    state.skill = { name, tools: new Set(skill.tools) };
    this.host.changed(state);
    await skill.onActivate?.(this.host.view(state));
  }

  async deactivate(state: ActivationState): Promise<void> {
    const active = state.skill && this.skills.get(state.skill.name);
    if (!active) return;
    state.skill = undefined;
    this.host.changed(state);
    await active.onDeactivate?.(this.host.view(state));
  }

  private metaTools(): AgentTool[] {
    const listSkills: AgentTool = {
      name: 'list_skills',
      description: 'List the skills you can invoke, with what each is for.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      execute: () =>
        this.list()
          .map((s) => `- ${s.name}: ${s.description}`)
          .join('\n') || 'No skills.',
    };
    const invokeSkill: AgentTool = {
      name: 'invoke_skill',
      description: 'Activate a skill: its tools become available and you get its instructions.',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', description: 'The skill to activate (see list_skills).' } },
        required: ['name'],
        additionalProperties: false,
      },
      execute: async (args, ctx) => {
        const name = String(args.name);
        const skill = this.skills.get(name);
        if (!skill) throw new Error(`Unknown skill '${name}'. Call list_skills to see the skills.`);
        await this.activateFor(ctx.sessionId, name);
        return `Skill '${name}' is active. Tools: ${skill.tools.join(', ')}.${skill.instructions ? `\n\n${skill.instructions}` : ''}`;
      },
    };
    return [listSkills, invokeSkill];
  }

  /** @internal Set by the toolkit: activates a skill in the view of `sessionId`. */
  activateFor: (sessionId: string | undefined, name: string) => Promise<void> = () => Promise.resolve();
}
