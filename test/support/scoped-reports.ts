import { injectable } from 'inversify';
import { Tool, ToolParam } from '../../src';

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
