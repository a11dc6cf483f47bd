import 'reflect-metadata';
import { Container } from 'inversify';
import { Tool, Toolkit, ToolParam, ToolService, type ToolkitOptions } from '../../src';

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
