import { injectable } from 'inversify';
import { Principal, Tool, ToolExecutionContext, ToolParam } from '../../src';
import { freshToolkit } from './toolkit';

/**
 * A service with one scoped tool (`write_report`, scope `reports:write`) that records each run,
 * and one open tool: "the tool did not run" is checked on `written`, not only on the answer.
 */
@injectable()
export class Reports {
  written: string[] = [];

  @Tool({ description: 'Write a report', scopes: ['reports:write'] })
  writeReport(@ToolParam({ name: 'title' }) title: string): string {
    this.written.push(title);
    return `wrote ${title}`;
  }

  @Tool({ description: 'Read reports' })
  readReports(): string {
    return 'none';
  }
}

/** A caller holding `reports:write`. */
export const ann = ToolExecutionContext.of(new Principal('ann', { scopes: ['reports:write'] }));
/** A caller holding no scope. */
export const guest = ToolExecutionContext.of(new Principal('guest'));

/** A fresh toolkit with {@link Reports} registered. */
export function reportsToolkit() {
  const toolkit = freshToolkit();
  const reports = new Reports();
  toolkit.registerTool(reports);
  return { toolkit, reports };
}
