import { Tool, ToolParam, ToolService, type AgentTool, type ToolCallContext } from '../../src';

/** Records every run of a tool, so tests can count that nothing runs twice. */
export class RunLog {
  readonly runs: { tool: string; callId: string; args: Record<string, unknown>; sessionId?: string }[] = [];

  record(tool: string, ctx: ToolCallContext, args: Record<string, unknown>): void {
    this.runs.push({ tool, callId: ctx.callId, args, ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}) });
  }

  count(tool?: string, callId?: string): number {
    return this.runs.filter((r) => (tool === undefined || r.tool === tool) && (callId === undefined || r.callId === callId)).length;
  }
}

/** A file service with tools of every risk level; `runs` records every run (tool and path). */
@ToolService()
export class FileService {
  static runs: { tool: string; path: string }[] = [];

  @Tool({ name: 'read_file', description: 'Read a file', risk: 'low' })
  readFile(@ToolParam({ name: 'path' }) path: string): string {
    FileService.runs.push({ tool: 'read_file', path });
    return `contents of ${path}`;
  }

  @Tool({ name: 'write_file', description: 'Write a file', risk: 'medium' })
  writeFile(@ToolParam({ name: 'path' }) path: string, @ToolParam({ name: 'text' }) text: string): string {
    FileService.runs.push({ tool: 'write_file', path });
    return `wrote ${text.length} characters to ${path}`;
  }

  @Tool({ name: 'delete_file', description: 'Delete a file', risk: 'high' })
  deleteFile(@ToolParam({ name: 'path' }) path: string): string {
    FileService.runs.push({ tool: 'delete_file', path });
    return `deleted ${path}`;
  }
}

/**
 * `AgentTool` objects that log each run with the call id, so tests see exactly which call ran.
 * `risk` sets `behaviour.risk`.
 */
export function loggedTool(log: RunLog, name: string, options: { risk?: 'low' | 'medium' | 'high'; respond?: (args: Record<string, unknown>) => unknown } = {}): AgentTool {
  return {
    name,
    description: `The ${name} tool`,
    parameters: { type: 'object', properties: { n: { type: 'integer' }, text: { type: 'string' } }, additionalProperties: false },
    ...(options.risk ? { behaviour: { risk: options.risk } } : {}),
    execute(args, ctx) {
      log.record(name, ctx, args);
      return options.respond ? options.respond(args) : `${name} done with ${JSON.stringify(args)}`;
    },
  };
}
