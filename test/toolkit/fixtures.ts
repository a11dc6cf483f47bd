import 'reflect-metadata';
import { Container } from 'inversify';
import type { Subscription } from 'rxjs';
import {
  Tool,
  Toolkit,
  ToolkitError,
  ToolParam,
  ToolService,
  type AgentTool,
  type CallOptions,
  type ToolCall,
  type ToolEvent,
  type ToolkitErrorCode,
  type ToolkitOptions,
  type ToolResult,
} from '../../src';

/** A user context object injected by type into tools. */
export class Tenant {
  constructor(readonly id: string) {}
}

/** Tools of the `search` group. */
@ToolService({ group: 'search' })
export class SearchService {
  @Tool({ description: 'Search the web' })
  webSearch(@ToolParam({ name: 'query', description: 'What to look for' }) query: string): string {
    return `results for ${query}`;
  }

  @Tool({ description: 'Fetch a page' })
  fetchPage(@ToolParam({ name: 'url' }) url: string): string {
    return `page ${url}`;
  }
}

/** Tools of the `admin` group; `delete_user` is high-risk and records what it deleted. */
@ToolService({ group: 'admin' })
export class AdminService {
  readonly deleted: string[] = [];

  @Tool({ description: 'Delete a user', risk: 'high', annotations: { destructive: true } })
  deleteUser(@ToolParam({ name: 'id' }) id: string): string {
    this.deleted.push(id);
    return `deleted ${id}`;
  }

  @Tool({ description: 'Audit who did what' })
  audit(tenant: Tenant): string {
    return `audit of ${tenant.id}`;
  }
}

/** Tools without a group (always on unless a skill scopes tools). */
export class NotesService {
  @Tool({ description: 'Summarise a text' })
  summarise(@ToolParam({ name: 'text' }) text: string): string {
    return `summary(${text})`;
  }

  @Tool({ description: 'Send a message with the API key preset' })
  notify(@ToolParam({ name: 'to' }) to: string, @ToolParam({ name: 'apiKey' }) apiKey: string): string {
    return `sent to ${to} with ${apiKey === 'secret-key-1234' ? 'the preset key' : 'another key'}`;
  }
}

/**
 * A fresh toolkit: groups `search` (on) and `admin` (off); Search, Admin and Notes services;
 * `notify` has its `apiKey` preset.
 */
export function setupToolkit(options: ToolkitOptions = {}): { toolkit: Toolkit; admin: AdminService } {
  const container = new Container();
  const toolkit = new Toolkit({ container, ...options });
  toolkit.createToolGroup('search', 'Web search', true);
  toolkit.createToolGroup('admin', 'Administration', false);
  toolkit.registerTool(SearchService);
  toolkit.registerTool(AdminService);
  toolkit.registration().tool(NotesService).presetParameters({ notify: { apiKey: 'secret-key-1234' } }).apply();
  return { toolkit, admin: container.get(AdminService) };
}

/** A plain AgentTool. */
export function agentTool(name: string, execute: AgentTool['execute'], extra: Partial<AgentTool> = {}): AgentTool {
  return { name, description: `The ${name} tool`, parameters: { type: 'object', properties: {} }, execute, ...extra };
}

let nextId = 0;

/** Calls a tool on a view with a fresh call id. */
export function call(
  target: { callTool(call: ToolCall, options?: CallOptions): Promise<ToolResult> },
  name: string,
  args: ToolCall['arguments'] = {},
  options: CallOptions = {},
): Promise<ToolResult> {
  return target.callTool({ id: `call_${++nextId}`, name, arguments: args }, options);
}

/** The names of a tool list. */
export const names = (tools: readonly { name: string }[]): string[] => tools.map((t) => t.name);

/** Records every event of a toolkit until `stop()`. */
export function recordEvents(toolkit: Toolkit): { events: ToolEvent[]; stop(): void } {
  const events: ToolEvent[] = [];
  const subscription: Subscription = toolkit.events$.subscribe((e) => events.push(e));
  return { events, stop: () => subscription.unsubscribe() };
}

/** Runs `fn` and returns the ToolkitError it throws (checking the code). */
export function thrown(fn: () => unknown, code: ToolkitErrorCode): ToolkitError {
  try {
    fn();
  } catch (e) {
    if (!ToolkitError.is(e)) throw new Error(`expected a ToolkitError ${code}, got ${String(e)}`);
    expect(e.code).toBe(code);
    return e;
  }
  throw new Error(`expected a ToolkitError ${code}, but nothing was thrown`);
}

/** Awaits `promise` and returns the ToolkitError it rejects with (checking the code). */
export async function rejected(promise: Promise<unknown>, code: ToolkitErrorCode): Promise<ToolkitError> {
  try {
    await promise;
  } catch (e) {
    if (!ToolkitError.is(e)) throw new Error(`expected a ToolkitError ${code}, got ${String(e)}`);
    expect(e.code).toBe(code);
    return e;
  }
  throw new Error(`expected a rejection with ${code}`);
}
