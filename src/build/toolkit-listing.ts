import * as path from 'node:path';
import type { ReadonlyObjectJsonSchema } from '../model/json-schema';
import type { AgentTool } from '../model/agent-tool';
import { describeThrown, ToolkitError } from '../errors/toolkit-error';
import type { Toolkit } from '../toolkit/toolkit';

/** The part of a `Toolkit` the listing reads (a toolkit of another copy of toolwright qualifies too). */
type ListedToolkit = Pick<Toolkit, 'getAllTools' | 'getActiveTools' | 'getAvailability' | 'getToolGroups' | 'getSkills'>;

/** One tool as `toolwright list` shows it. */
export interface ListedTool {
  readonly name: string;
  readonly description: string;
  /** Its group (absent: always on). */
  readonly group?: string;
  /** `'enabled'` (and by what), or why not. */
  readonly availability: string;
  /** With `--json` only: the JSON Schema of its arguments (preset parameters are never in it). */
  readonly parameters?: ReadonlyObjectJsonSchema;
  /** With `--json` only: annotations, risk, timeout… as declared. */
  readonly behaviour?: Readonly<Record<string, unknown>>;
}

/** What `toolwright list` prints: the toolkit's tools, groups and skills. */
export interface ToolkitListing {
  readonly tools: readonly ListedTool[];
  readonly groups: readonly { readonly name: string; readonly description: string; readonly active: boolean }[];
  readonly skills: readonly { readonly name: string; readonly description: string; readonly tools: readonly string[] }[];
}

const TOOLKIT_METHODS = ['getAllTools', 'getActiveTools', 'getAvailability', 'getToolGroups', 'getSkills'] as const;

function isToolkit(value: unknown): value is ListedToolkit {
  return typeof value === 'object' && value !== null && TOOLKIT_METHODS.every((m) => typeof (value as Record<string, unknown>)[m] === 'function');
}

/** The module's exports that may hold the toolkit, in the order tried. */
function candidates(exported: unknown, name: string | undefined): [string, unknown][] {
  const record = (typeof exported === 'object' || typeof exported === 'function') && exported !== null ? (exported as Record<string, unknown>) : {};
  if (name !== undefined) return [[name, record[name]]];
  return [
    ['toolkit', record.toolkit],
    ['default', record.default],
    ['module.exports', exported],
  ];
}

/**
 * Loads `file` (resolved from `cwd`) with `require` — CommonJS, or an ES module without top-level
 * `await` (Node >= 20.19 requires those too), or TypeScript when a loader is registered — and
 * finds its toolkit: the export `exportName`, else `toolkit`, else the default export, else
 * `module.exports` itself; a function there is called (no arguments) and its result (or what its
 * Promise resolves to) is used.
 *
 * @throws ToolkitError `CLI_USAGE` when the module cannot be found or loaded, or exports no toolkit.
 */
export async function loadToolkit(file: string, cwd: string, exportName?: string): Promise<ListedToolkit> {
  const resolved = path.resolve(cwd, file);
  let exported: unknown;
  try {
    exported = require(resolved);
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'MODULE_NOT_FOUND' && describeThrown(error).includes(resolved);
    throw new ToolkitError('CLI_USAGE', missing ? `cannot find module ${file} (looked for ${resolved})` : `cannot load ${file}: ${describeThrown(error).slice(0, 500)}`);
  }
  const tried = candidates(exported, exportName);
  for (const [, value] of tried) {
    const made = typeof value === 'function' && !isToolkit(value) ? await (value as () => unknown)() : value;
    if (isToolkit(made)) return made;
  }
  const names = tried.map(([name]) => name).join(', ');
  throw new ToolkitError(
    'CLI_USAGE',
    `${file} exports no toolkit (tried ${names}): export one (export const toolkit = new Toolkit(…)), as the default export, or a function that returns one (or a Promise of one).`,
  );
}

/** Why a registered tool that is not enabled is not. */
function whyDisabled(tool: AgentTool, groups: ToolkitListing['groups']): string {
  const group = tool.behaviour?.group;
  if (group !== undefined && groups.some((g) => g.name === group && !g.active)) return `disabled (group ${group} is off)`;
  return 'disabled (outside the active skill)';
}

/** The listing of `toolkit`; with `full`, every tool's JSON Schema and behaviour too. */
export function listToolkit(toolkit: ListedToolkit, full: boolean): ToolkitListing {
  const groups = toolkit.getToolGroups().map(({ name, description, active }) => ({ name, description, active }));
  const enabled = new Map(toolkit.getAvailability().map((a) => [a.name, a.source === 'global' ? 'enabled (meta tool)' : a.source === 'skill' ? `enabled (skill ${a.owner ?? ''})` : 'enabled']));
  const tools = toolkit.getAllTools().map((tool): ListedTool => {
    const group = tool.behaviour?.group;
    return {
      name: tool.name,
      description: tool.description,
      ...(group !== undefined ? { group } : {}),
      availability: enabled.get(tool.name) ?? whyDisabled(tool, groups),
      ...(full ? { parameters: tool.parameters, ...(tool.behaviour !== undefined ? { behaviour: { ...tool.behaviour } } : {}) } : {}),
    };
  });
  const skills = toolkit.getSkills().map((s) => ({ name: s.name, description: s.description, tools: [...s.tools] }));
  return { tools, groups, skills };
}

/** The listing as aligned text columns. */
export function listingText(listing: ToolkitListing): string {
  const table = (rows: readonly (readonly string[])[]): string[] => {
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i].length))) ?? [];
    return rows.map((row) => `  ${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')}`.trimEnd());
  };
  const oneLine = (text: string): string => {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > 100 ? `${line.slice(0, 99)}…` : line;
  };
  const out = [`Tools (${listing.tools.length}):`, ...table(listing.tools.map((t) => [t.name, t.group ?? '-', t.availability, oneLine(t.description)]))];
  out.push(`Groups (${listing.groups.length}):`, ...table(listing.groups.map((g) => [g.name, g.active ? 'active' : 'inactive', oneLine(g.description)])));
  out.push(`Skills (${listing.skills.length}):`, ...table(listing.skills.map((s) => [s.name, `tools: ${s.tools.join(', ') || '-'}`, oneLine(s.description)])));
  return `${out.join('\n')}\n`;
}
