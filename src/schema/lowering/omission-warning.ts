import type { LoweringChange, LoweringOmission } from './provider-definitions';

/** The tools already warned about, per tool object: the lowering keys (`provider|strict`) warned for. */
const warned = new WeakMap<object, Set<string>>();

/**
 * Emits the `TOOLWRIGHT_TOOL_SKIPPED` process warning for a tool that `by` left out of a
 * provider's definitions: what anyone who lowers a list of tools does when no report callback
 * was given. With `once`, at most one warning per tool object and lowering key (a toolkit lowers
 * its tools again on every change of the active set).
 *
 * @example
 * if (lowered.omission && !onLoweringReport) warnOmission('OpenAIProvider', lowered.omission);
 */
export function warnOmission(by: string, omission: LoweringOmission, once?: { readonly tool: object; readonly key: string }): void {
  if (once !== undefined) {
    let keys = warned.get(once.tool);
    if (keys === undefined) warned.set(once.tool, (keys = new Set()));
    if (keys.has(once.key)) return;
    keys.add(once.key);
  }
  process.emitWarning(`${by} left tool '${omission.tool}' out: ${omission.change}`, { code: 'TOOLWRIGHT_TOOL_SKIPPED' });
}

/**
 * Hands a tool's lowering report to `onReport` when it is not empty; a report that
 * leaves the tool out, with no `onReport` to take it, becomes a {@link warnOmission} warning.
 *
 * @example
 * deliverLoweringReport('AnthropicProvider', lowered.report, options.onLoweringReport);
 */
export function deliverLoweringReport(by: string, report: readonly LoweringChange[], onReport: ((report: readonly LoweringChange[]) => void) | undefined): void {
  if (report.length === 0) return;
  if (onReport !== undefined) {
    onReport(report);
    return;
  }
  for (const change of report) if (change.omitted) warnOmission(by, change as LoweringOmission);
}
