import { ToolExecutionContext } from '../../model/execution-context';
import { visibleNames } from '../visible-tools';
import type { AgentTool, ToolCallContext } from '../../model/agent-tool';
import type { JsonSchema, ObjectJsonSchema, ReadonlyObjectJsonSchema } from '../../model/json-schema';
import { MalformedArguments } from '../../model/call-arguments';
import { quoteInput } from '../../utils/quote-input';
import { errorResult, toolResult } from '../../model/results';
import type { ToolResult } from '../../model/tool-types';
import { ToolkitError } from '../../errors';
import { INVOKE_SKILL, LIST_SKILLS } from '../meta-tool-names';
import type { ToolEntry } from '../registry';
import { fallbackBinding, SkillRun, type CallBinding, type SkillRunParts } from './skill-run';
import type { ResolvedSkillOptions } from './skill-definition';
import type { SkillRecord, SkillRegistry } from './skill-registry';
import type { ToolEntries } from '../tool-entries';

/**
 * One skill as `list_skills` reports it in its result's `data` (an array of these).
 *
 * @example
 * const skills = (await toolkit.callTool({ id: 'c', name: 'list_skills', arguments: {} })).data as SkillListing[];
 * skills.filter((s) => s.executable).map((s) => s.name);
 */
export interface SkillListing {
  /** The skill's name. */
  name: string;
  /** What it is for. */
  description: string;
  /** Its scope (`tools`, `requiredTools`, step tools). */
  tools: string[];
  /** True for skills that run (`run` / `steps`) rather than scope tools. */
  executable: boolean;
  /** True when it is active in the calling view. */
  active: boolean;
  /** The parameters of an executable skill. */
  parameters?: ReadonlyObjectJsonSchema;
  /** Its risk level. */
  risk?: string;
}

const NO_PARAMETERS: ObjectJsonSchema = Object.freeze({ type: 'object', properties: {}, additionalProperties: false }) as ObjectJsonSchema;

/**
 * @internal The skill meta tools, `list_skills` and `invoke_skill`, and what they do in the view
 * that called them. `invoke_skill` of a known skill runs as that skill's own entry (see
 * {@link templateFor}): validated against the skill's schema, so errors name `parameters.<field>`,
 * and seen by hooks with the skill's `risk`, timeout and annotations, so that an approval hook
 * with `minRisk` holds exactly the risky skills.
 */
export class SkillTools {
  private readonly templates = new Map<string, { entry: ToolEntry; record: SkillRecord }>();

  constructor(
    private readonly parts: SkillRunParts,
    private readonly skills: SkillRegistry,
    private readonly entries: ToolEntries,
    private readonly limits: ResolvedSkillOptions,
  ) {}

  /** `list_skills` and `invoke_skill` as they are to be registered (the skill names are in the schema). */
  tools(): AgentTool[] {
    return [this.listSkillsTool(), this.invokeSkillTool()];
  }

  /** The entry of the skill that an `invoke_skill` call's parsed arguments name, or `undefined` when they name none. */
  templateFor(args: Record<string, unknown> | MalformedArguments): { entry: ToolEntry; record: SkillRecord } | undefined {
    if (args instanceof MalformedArguments) return undefined;
    const name = args.name;
    if (typeof name !== 'string') return undefined;
    const record = this.skills.get(name);
    if (record === undefined) return undefined;
    let template = this.templates.get(name);
    if (template === undefined || template.record !== record) {
      template = { entry: this.entries.agentEntry(this.skillTool(record), {}, 'global'), record };
      this.templates.set(name, template);
    }
    return template;
  }

  /** What `list_skills` answers in the calling view. */
  list(binding: CallBinding): ToolResult {
    const active = binding.state.skill?.name;
    const listings: SkillListing[] = [];
    const lines: string[] = [];
    const own = callerContext(binding);
    for (const { skill, scope: all, executable } of this.skills.all()) {
      const scope = visibleNames(this.parts, all, own);
      const listing: SkillListing = { name: skill.name, description: skill.description, tools: [...scope], executable, active: skill.name === active };
      if (skill.parameters !== undefined) listing.parameters = skill.parameters;
      if (skill.risk !== undefined) listing.risk = skill.risk;
      listings.push(listing);
      let line = `- ${skill.name}${listing.active ? ' (active)' : ''}: ${skill.description}`;
      if (executable) {
        line += ` Runs when invoked${skill.parameters ? ` with parameters ${JSON.stringify(skill.parameters)}` : ''}.`;
        if (skill.risk !== undefined) line += ` Risk: ${skill.risk}.`;
      } else line += ` Tools: ${[...scope].join(', ') || '(none)'}.`;
      lines.push(line);
    }
    const text = lines.length ? `Skills (call invoke_skill with the name${listings.some((l) => l.parameters) ? ' and, for skills that run, the parameters' : ''}):\n${lines.join('\n')}` : 'No skills.';
    return toolResult(text, listings);
  }

  /** `invoke_skill` of the skill its (validated) arguments name, in the calling view. */
  invokeNamed(args: Record<string, unknown>, ctx: ToolCallContext, binding: CallBinding): Promise<unknown> {
    const name = String(args.name);
    const record = this.skills.get(name);
    if (!record) throw new ToolkitError('UNKNOWN_SKILL', `Unknown skill ${quoteInput(name)}. Call list_skills to see the skills.`);
    return this.invoke(record, args, ctx, binding);
  }

  /** Activates a scoping skill in the calling view, or runs an executable one. */
  async invoke(record: SkillRecord, args: Record<string, unknown>, ctx: ToolCallContext, binding: CallBinding): Promise<unknown> {
    const { skill, executable } = record;
    try {
      this.skills.checkRequired(skill, executable ? 'run' : 'activate');
    } catch (error) {
      if (ToolkitError.is(error)) return errorResult(error.message, error.code);
      throw error;
    }
    if (!executable) {
      if (binding.frame !== undefined) {
        return errorResult(
          `Skill '${skill.name}' only scopes tools; a skill's workflow can invoke only skills that run (with run or steps).`,
          'SKILL_FAILED',
        );
      }
      await this.skills.activate(binding.view, binding.state, skill.name);
      const tools = visibleNames(this.parts, record.scope, callerContext(binding));
      return `Skill '${skill.name}' is active. Tools: ${tools.join(', ') || '(none)'}.${skill.instructions ? `\n\n${skill.instructions}` : ''}`;
    }
    const depth = (binding.frame?.depth ?? 0) + 1;
    const chain = [...(binding.frame?.chain ?? []), skill.name];
    const maxDepth = this.limits.maxDepth;
    if (depth > maxDepth) {
      return errorResult(
        `Skill '${skill.name}' was not run: skills invoking skills (${chain.join(' > ')}) would nest ${depth} deep; the limit is ${maxDepth}.`,
        'SKILL_LIMIT_EXCEEDED',
      );
    }
    const params = (args.parameters ?? {}) as Record<string, unknown>;
    const maxToolCalls = skill.maxToolCalls ?? this.limits.maxToolCalls;
    return new SkillRun(this.parts, record, ctx, binding, { depth, chain }, maxToolCalls).execute(params);
  }

  private listSkillsTool(): AgentTool {
    return {
      name: LIST_SKILLS,
      description: 'List the skills you can invoke with invoke_skill: what each is for, its tools, and the parameters of skills that run.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      behaviour: { annotations: { readOnly: true, idempotent: true, openWorld: false } },
      execute: (_args, ctx) => this.list(fallbackBinding(this.parts, ctx)),
    };
  }

  private invokeSkillTool(): AgentTool {
    const records = [...this.skills.all()];
    const withParameters = records.filter((r) => r.skill.parameters !== undefined).map((r) => r.skill.parameters!);
    const properties: Record<string, JsonSchema> = {
      name: { type: 'string', enum: records.map((r) => r.skill.name), description: 'The skill (see list_skills).' },
    };
    if (withParameters.length) {
      const description = "The skill's parameters, for skills that run (see list_skills).";
      properties.parameters = withParameters.length === 1 ? { ...withParameters[0], description } : { description, anyOf: withParameters };
    }
    return {
      name: INVOKE_SKILL,
      description:
        'Invoke a skill by name. A skill that scopes tools becomes active (only its tools stay available) and you get its instructions; ' +
        'a skill that runs does its work with the given parameters and you get its output.',
      parameters: { type: 'object', properties, required: ['name'], additionalProperties: false },
      execute: (args, ctx) => this.invokeNamed(args, ctx, fallbackBinding(this.parts, ctx)),
    };
  }

  /** What hooks and validation see for `invoke_skill` of one skill: its schema, risk, timeout. */
  private skillTool(record: SkillRecord): AgentTool {
    const { skill, executable } = record;
    const parameters = skill.parameters ?? NO_PARAMETERS;
    const required = ['name', ...(parameters.required?.length ? ['parameters'] : [])];
    const timeoutMs = executable ? (skill.timeoutMs ?? this.limits.timeoutMs) : undefined;
    return {
      name: INVOKE_SKILL,
      description: `Invoke skill '${skill.name}': ${skill.description}`,
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', const: skill.name }, parameters },
        required,
        additionalProperties: false,
      },
      behaviour: {
        ...(skill.risk !== undefined ? { risk: skill.risk } : {}),
        ...(skill.annotations !== undefined ? { annotations: skill.annotations } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        // a run has side effects: never retried by the toolkit's retry policy
        retry: { maxAttempts: 1 },
        tags: ['skill', skill.name],
      },
      execute: (args, ctx) => this.invoke(record, args, ctx, fallbackBinding(this.parts, ctx)),
    };
  }
}

/** The caller's own context of a meta tool's call (agent-level under call-level). */
function callerContext(binding: CallBinding): ToolExecutionContext {
  return ToolExecutionContext.merge(binding.options.agentContext, binding.options.context);
}
