import type { ContextResolver } from '../../model/agent-tool';
import type { ReadonlyObjectJsonSchema } from '../../model/json-schema';
import type { ToolAnnotations, ToolProgress, ToolResult, ToolRisk } from '../../model/tool-types';
import { ToolkitError, describeThrown } from '../../errors/toolkit-error';
import { schemaProblems } from '../../schema/schema-problems';
import type { ToolView } from '../tool-view';

/**
 * What an executable skill's `run` (and each of its `steps`) gets: the call it answers, tool
 * calls that go through the toolkit (hooks, approval, validation, presets, timeouts all apply),
 * nested skills, and progress.
 *
 * A workflow may call the skill's own tools (`tools`, `requiredTools`, step tools) and the
 * toolkit's global meta tools, whatever the calling session has switched on: it runs as if its
 * skill were active, without changing the session.
 *
 * @example
 * const report = defineSkill({
 *   name: 'weather_report', description: 'Weather for several cities', tools: ['get_weather'],
 *   parameters: { type: 'object', properties: { cities: { type: 'array', items: { type: 'string' } } }, required: ['cities'] },
 *   run: async ({ cities }, ctx) => {
 *     const lines: string[] = [];
 *     for (const city of cities as string[]) {
 *       ctx.emit(`looking up ${city}`);
 *       lines.push((await ctx.callTool('get_weather', { city })).forLLM);
 *     }
 *     return lines.join('\n');
 *   },
 * });
 */
export interface SkillContext {
  /** The skill being run. */
  readonly skill: string;
  /** The id of the `invoke_skill` call this run answers (nested calls get `<callId>.<n>`). */
  readonly callId: string;
  /** The session the run belongs to, if any (nested calls run in it too). */
  readonly sessionId?: string | undefined;
  /** Fires when the run times out, the caller aborts, or the run hits its tool-call cap. */
  readonly signal: AbortSignal;
  /** 1 for a skill the model invoked, 2 for a skill that skill invoked, and so on. */
  readonly depth: number;
  /** Tool calls made so far by this run (`callTool`, `callTools`, `invokeSkill`). */
  readonly toolCalls: number;
  /** Context objects along the call > agent > toolkit chain (the invoking call's). */
  readonly context: ContextResolver;
  /**
   * Calls a tool through the toolkit, in the invoking call's session and context. Never rejects
   * for call-time faults: they come back as `isError` results, like `toolkit.callTool`. A call
   * that an approval hook holds answers with its pending-approval result.
   */
  callTool(name: string, args?: Record<string, unknown> | string, options?: SkillCallOptions): Promise<ToolResult>;
  /** Calls several tools as a batch (parallel up to the toolkit's `maxConcurrency`); results in call order. */
  callTools(calls: readonly { name: string; arguments?: Record<string, unknown> | string | undefined }[], options?: SkillCallOptions): Promise<ToolResult[]>;
  /** Invokes another executable skill (through `invoke_skill`, so approval applies); counts as one tool call. */
  invokeSkill(name: string, params?: Record<string, unknown>, options?: SkillCallOptions): Promise<ToolResult>;
  /** Streams progress on `events$` (`call_progress` of the `invoke_skill` call) and to the caller's `onProgress`. */
  emit(progress: ToolProgress | string): void;
}

/**
 * Options of {@link SkillContext.callTool}.
 *
 * @example
 * await ctx.callTool('fetch_page', { url }, { signal: AbortSignal.timeout(5_000) });
 */
export interface SkillCallOptions {
  /** Aborts this call (the run's own signal applies as well). */
  signal?: AbortSignal | undefined;
}

/**
 * What a step's `arguments` function gets.
 *
 * @example
 * const step: SkillStep = { tool: 'summarise', arguments: ({ previous }) => ({ text: previous?.forLLM ?? '' }) };
 */
export interface SkillStepInput {
  /** The skill's validated parameters. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The results of the steps so far, in order. */
  readonly results: readonly ToolResult[];
  /** The previous step's result (`undefined` for the first step). */
  readonly previous?: ToolResult | undefined;
}

/**
 * One step of a declarative workflow: a tool call whose arguments are fixed or computed from
 * the parameters and the earlier results. A step that fails (or is held for approval) stops the
 * workflow; the skill's result then says which step and why.
 *
 * @example
 * const steps: SkillStep[] = [
 *   { tool: 'web_search', arguments: ({ params }) => ({ query: params.topic }) },
 *   { tool: 'summarise', arguments: ({ previous }) => ({ text: previous!.forLLM }) },
 * ];
 */
export interface SkillStep {
  /** The tool to call (it joins the skill's scope). */
  readonly tool: string;
  /** The arguments, or a function that makes them. */
  readonly arguments?: Record<string, unknown> | ((input: SkillStepInput) => Record<string, unknown> | Promise<Record<string, unknown>>) | undefined;
}

/**
 * A skill: a named scope of tools with instructions for the model, and optionally work of its
 * own (the HyperAgent design).
 *
 * - **Scoping skill** (no `run`, no `steps`): `activateSkill(name)` or the model's
 *   `invoke_skill` makes it active in one view; while active, only its tools (`tools` and
 *   `requiredTools`) and the toolkit's global meta tools are enabled there; `instructions` are
 *   returned to the model.
 * - **Executable skill** (`run` or `steps`): `invoke_skill` validates `parameters`, runs it
 *   under a timeout, a tool-call cap and the approval hooks (by `risk`), and answers with its
 *   output. It does not change the view's scope.
 *
 * @example
 * const research = defineSkill({ name: 'research', description: 'Look things up on the web',
 *   tools: ['web_search', 'fetch_page'], requiredTools: ['web_search'], instructions: 'Cite every source.' });
 */
export interface SkillDefinition<P extends Record<string, unknown> = Record<string, unknown>> {
  /** Unique name (`^[a-zA-Z0-9_-]{1,64}$`). */
  readonly name: string;
  /** What the skill is for (shown by `list_skills` and `renderPrompt`). */
  readonly description: string;
  /** The tools the skill enables (scoping) or may call (executable). */
  readonly tools: readonly string[];
  /** Returned to the model when the skill is activated; shown by `renderPrompt` while it is active. */
  readonly instructions?: string | undefined;
  /**
   * Groups this skill may use even where its view has them off: the developer's explicit grant.
   * Without it a skill selects only among the tools its view permits (groups are the permission
   * boundary): a listed tool of an inactive group stays disabled, for the scope and for `run` /
   * `steps` alike. A grant is not inherited by skills this skill invokes.
   *
   * @example
   * defineSkill({ name: 'offboard', description: 'Remove a leaver', tools: ['delete_user'], grantGroups: ['admin'], steps: [...] });
   */
  readonly grantGroups?: readonly string[] | undefined;
  /**
   * Tools that must be registered: checked by `registerSkill` and again on every activation or
   * run (`MISSING_REQUIRED_TOOLS`). They join the skill's scope.
   */
  readonly requiredTools?: readonly string[] | undefined;
  /** Runs after the skill became active in `view` (hooks of one view run one at a time, in order). */
  onActivate?: ((view: ToolView) => void | Promise<void>) | undefined;
  /** Runs after the skill was deactivated in `view`. */
  onDeactivate?: ((view: ToolView) => void | Promise<void>) | undefined;
  /** JSON Schema (object root) of an executable skill's parameters; `invoke_skill` validates them field by field. */
  readonly parameters?: ReadonlyObjectJsonSchema | undefined;
  /**
   * The work of an executable skill: one step, or a workflow calling tools through `ctx`. May
   * return what a tool may (text, a `ToolResult`, JSON data, a Promise, an Observable, an async
   * generator whose yields are progress). Thrown errors become the `invoke_skill` error result.
   * (Typed through a method, the `bivarianceHack` form, so that a skill whose `run` takes its own
   * parameter type is still a `SkillDefinition` for `registerSkill`, as it is with a method.)
   */
  run?: { bivarianceHack(params: P, ctx: SkillContext): unknown }['bivarianceHack'] | undefined;
  /** A declarative workflow instead of `run`: tool calls in order; the result is the last step's. */
  readonly steps?: readonly SkillStep[] | undefined;
  /** How risky running the skill is: approval hooks see it as the `invoke_skill` call's tool risk. */
  readonly risk?: ToolRisk | undefined;
  /** Behaviour hints of the `invoke_skill` call that runs the skill (MCP annotations). */
  readonly annotations?: ToolAnnotations | undefined;
  /** Timeout of one run in ms (default: the toolkit's `skills.timeoutMs`, 60 s; `0`: none). */
  readonly timeoutMs?: number | undefined;
  /** Most tool calls one run may make (default: the toolkit's `skills.maxToolCalls`, 25). */
  readonly maxToolCalls?: number | undefined;
}

/**
 * Toolkit-wide limits of executable skills (`new Toolkit({ skills })`).
 *
 * @example
 * new Toolkit({ skills: { maxDepth: 2, maxToolCalls: 10, timeoutMs: 30_000 } });
 */
export interface SkillOptions {
  /** Most skills nested in one another (a run invoking a skill that invokes a skill…). Default 3. */
  maxDepth?: number | undefined;
  /** Default cap of tool calls per run. Default 25. */
  maxToolCalls?: number | undefined;
  /** Default timeout of a run in ms. Default 60,000; `0` disables it. */
  timeoutMs?: number | undefined;
}

/** @internal The limits with defaults applied. */
export interface ResolvedSkillOptions {
  readonly maxDepth: number;
  readonly maxToolCalls: number;
  readonly timeoutMs: number;
}

/** @internal */
export function resolveSkillOptions(options: SkillOptions | undefined): ResolvedSkillOptions {
  const positive = (value: number | undefined, fallback: number, what: string): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !(value >= 0)) {
      throw new ToolkitError('INVALID_DEFINITION', `new Toolkit({ skills: { ${what} } }) must be a number >= 0, got ${String(value)}.`);
    }
    return value;
  };
  return Object.freeze({
    maxDepth: Math.max(1, Math.floor(positive(options?.maxDepth, 3, 'maxDepth'))),
    maxToolCalls: Math.floor(positive(options?.maxToolCalls, 25, 'maxToolCalls')),
    timeoutMs: positive(options?.timeoutMs, 60_000, 'timeoutMs'),
  });
}

const SKILL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const RISKS: readonly ToolRisk[] = ['low', 'medium', 'high'];

/** Definition-time checks shared by `defineSkill` and `registerSkill`. */
export function checkSkill(skill: SkillDefinition): void {
  const fail = (why: string): never => {
    throw new ToolkitError('INVALID_DEFINITION', `Skill '${String(skill?.name)}': ${why}`);
  };
  if (typeof skill !== 'object' || skill === null) {
    throw new ToolkitError('INVALID_DEFINITION', `A skill must be an object made with defineSkill({ name, description, tools, … }), got ${describeThrown(skill)}.`);
  }
  if (typeof skill.name !== 'string' || !SKILL_NAME.test(skill.name)) fail("the name must be 1-64 letters, digits, '_' or '-'.");
  if (typeof skill.description !== 'string' || skill.description.trim() === '') fail('needs a description (the model reads it to choose the skill).');
  const names = (list: unknown, field: string): void => {
    if (list === undefined && field !== 'tools') return;
    if (!Array.isArray(list) || list.some((t) => typeof t !== 'string')) fail(`${field} must be an array of tool names.`);
  };
  names(skill.tools, 'tools');
  names(skill.requiredTools, 'requiredTools');
  if (skill.grantGroups !== undefined && (!Array.isArray(skill.grantGroups) || skill.grantGroups.some((g) => typeof g !== 'string'))) {
    fail('grantGroups must be an array of group names.');
  }
  for (const hook of ['onActivate', 'onDeactivate', 'run'] as const) {
    if (skill[hook] !== undefined && typeof skill[hook] !== 'function') fail(`${hook} must be a function.`);
  }
  if (skill.run !== undefined && skill.steps !== undefined) fail('define run or steps, not both.');
  if (skill.steps !== undefined) {
    if (!Array.isArray(skill.steps) || skill.steps.length === 0) fail('steps must be a non-empty array of { tool, arguments }.');
    skill.steps.forEach((step, i) => {
      if (typeof step !== 'object' || step === null || typeof step.tool !== 'string') fail(`steps[${i}] needs a tool name.`);
      const args = step.arguments;
      if (args !== undefined && typeof args !== 'function' && (typeof args !== 'object' || args === null || Array.isArray(args))) {
        fail(`steps[${i}].arguments must be an object or a function that returns one.`);
      }
    });
  }
  const executable = skill.run !== undefined || skill.steps !== undefined;
  if (skill.parameters !== undefined) {
    if (!executable) fail('parameters are for executable skills: add run(params, ctx) or steps.');
    if (typeof skill.parameters !== 'object' || skill.parameters === null || skill.parameters.type !== 'object') {
      fail("parameters must be a JSON Schema with type 'object' at the root.");
    }
    const problems = schemaProblems(skill.parameters);
    if (problems !== undefined) fail(`parameters is not a valid JSON Schema: ${problems}.`);
  }
  if (skill.risk !== undefined && !RISKS.includes(skill.risk)) fail(`risk must be 'low', 'medium' or 'high', got '${String(skill.risk)}'.`);
  for (const field of ['timeoutMs', 'maxToolCalls'] as const) {
    const value = skill[field];
    if (value !== undefined && (typeof value !== 'number' || !(value >= 0))) fail(`${field} must be a number >= 0.`);
  }
}

/**
 * Defines a skill: checks its shape (a clear `INVALID_DEFINITION` naming the field) and freezes
 * it. A typed identity function otherwise; `registerSkill` checks plain objects the same way.
 *
 * @throws ToolkitError `INVALID_DEFINITION`.
 *
 * @example
 * // scoping: only web_search and fetch_page (plus meta tools) while active
 * const research = defineSkill({ name: 'research', description: 'Look things up',
 *   tools: ['web_search', 'fetch_page'], instructions: 'Cite every source.' });
 *
 * // executable, one step
 * const convert = defineSkill({ name: 'convert', description: 'Convert an amount', tools: [], risk: 'low',
 *   parameters: { type: 'object', properties: { eur: { type: 'number', minimum: 0 } }, required: ['eur'] },
 *   run: ({ eur }) => `${(eur as number) * 1.1} USD` });
 *
 * // executable, declarative workflow
 * const digest = defineSkill({ name: 'digest', description: 'Search, then summarise', tools: [],
 *   parameters: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
 *   steps: [{ tool: 'web_search', arguments: ({ params }) => ({ query: params.topic }) },
 *           { tool: 'summarise', arguments: ({ previous }) => ({ text: previous!.forLLM }) }] });
 * toolkit.registerSkill(research);
 */
export function defineSkill<S extends SkillDefinition>(skill: S): Readonly<S> {
  checkSkill(skill);
  const copy: S = {
    ...skill,
    tools: Object.freeze([...skill.tools]),
    ...(skill.requiredTools ? { requiredTools: Object.freeze([...skill.requiredTools]) } : {}),
    ...(skill.grantGroups ? { grantGroups: Object.freeze([...skill.grantGroups]) } : {}),
    ...(skill.steps ? { steps: Object.freeze(skill.steps.map((s) => Object.freeze({ ...s }))) } : {}),
  };
  return Object.freeze(copy);
}
