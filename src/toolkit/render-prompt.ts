import type { AgentTool } from '../model/agent-tool';
import type { ToolAvailability } from './availability';
import type { RenderPromptOptions } from './view-options';

/** @internal What the prompt says of a skill (a `SkillDefinition` is one). */
export interface PromptSkill {
  readonly name: string;
  readonly description: string;
  readonly instructions?: string | undefined;
  /** An executable skill's code (with `steps`: the prompt says the skill runs). */
  readonly run?: unknown;
  /** An executable skill's workflow. */
  readonly steps?: unknown;
  readonly parameters?: { readonly properties: object } | undefined;
  readonly risk?: string | undefined;
}

/** @internal What a view renders. */
export interface PromptInput {
  readonly activeSkill: PromptSkill | undefined;
  readonly tools: readonly AgentTool[];
  readonly availability: readonly ToolAvailability[];
  readonly groups: readonly { name: string; description: string; active: boolean }[];
  readonly skills: readonly PromptSkill[];
  readonly equipTool: string | undefined;
}

function cut(text: string, max: number | undefined): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return max !== undefined && line.length > max ? `${line.slice(0, Math.max(0, max - 1))}…` : line;
}

/**
 * @internal Renders the active skill's instructions, the enabled tools, the groups and the
 * skills of a view as Markdown for a system prompt. Deterministic (registration order); sections
 * with nothing to say are left out, so an empty toolkit renders `''`.
 */
export function renderPrompt(input: PromptInput, options: RenderPromptOptions = {}): string {
  const max = options.maxDescriptionChars;
  const sections: string[] = [];
  const skill = input.activeSkill;
  if (skill !== undefined) {
    const lines = [`## Active skill: ${skill.name}`, cut(skill.description, max)];
    if (skill.instructions) lines.push('', skill.instructions.trim());
    sections.push(lines.join('\n'));
  }
  if (options.tools !== false && input.tools.length) {
    const sources = new Map(input.availability.map((a) => [a.name, a]));
    const lines = input.tools.map((tool) => {
      const found = sources.get(tool.name);
      const via = found?.source === 'skill' ? ` (skill ${found.owner})` : found?.owner !== undefined ? ` (group ${found.owner})` : '';
      return `- ${tool.name}${via}: ${cut(tool.description, max)}`;
    });
    sections.push(['## Available tools', ...lines].join('\n'));
  }
  if (options.groups !== false && input.groups.length) {
    const lines = input.groups.map((g) => `- ${g.name} (${g.active ? 'on' : 'off'})${g.description ? `: ${cut(g.description, max)}` : ''}`);
    if (skill !== undefined) lines.push(`Groups switched on while skill '${skill.name}' is active stay on until it is deactivated.`);
    if (input.equipTool !== undefined) lines.push(`Switch groups on or off with ${input.equipTool}.`);
    sections.push(['## Tool groups', ...lines].join('\n'));
  }
  if (options.skills !== false && input.skills.length) {
    const lines = input.skills.map((s) => {
      const runs = s.run !== undefined || s.steps !== undefined;
      const params = s.parameters ? Object.keys(s.parameters.properties) : [];
      const detail = runs ? ` (runs${params.length ? `; parameters: ${params.join(', ')}` : ''}${s.risk ? `; risk: ${s.risk}` : ''})` : '';
      return `- ${s.name}${s.name === skill?.name ? ' (active)' : ''}: ${cut(s.description, max)}${detail}`;
    });
    lines.push('Activate or run a skill with invoke_skill; list_skills shows their tools and parameters.');
    sections.push(['## Skills', ...lines].join('\n'));
  }
  return sections.join('\n\n');
}
