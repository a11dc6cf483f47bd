import type { ToolSchema } from '../../common/tool-types';
import type { Reporter } from './schema-utils';

/** The default {@link LoweringOptions.examplesBudget}: the most characters examples add to a description. */
export const DEFAULT_EXAMPLES_BUDGET = 1000;

const HEADING = '\n\nExamples of arguments:';

/**
 * `tool.description` with its examples appended, one compact JSON line each, for providers without
 * an examples field. Whole examples only (a cut JSON text would teach the model a broken call):
 * those that do not fit within `budget` characters, counted with the heading, are left out, and
 * the report says which and why.
 *
 * @internal
 */
export function describeWithExamples(tool: ToolSchema, budget: number, report: Reporter): string {
  const examples = tool.examples ?? [];
  if (examples.length === 0) return tool.description;
  let text = HEADING;
  const dropped: number[] = [];
  examples.forEach((example, index) => {
    const line = `\n${JSON.stringify(example)}`;
    if (text.length + line.length <= budget) text += line;
    else dropped.push(index);
  });
  if (dropped.length > 0) {
    const which = dropped.map((i) => `#${i}`).join(', ');
    report('', `examples ${which} left out of the description: over the ${budget}-character examples budget`);
  }
  if (dropped.length === examples.length) return tool.description;
  report('', `${examples.length - dropped.length} example(s) rendered into the description (the provider has no examples field)`);
  return tool.description + text;
}
