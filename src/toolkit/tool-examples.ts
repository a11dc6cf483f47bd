import type { ObjectJsonSchema } from '../common/json-schema';
import { isPlainObject } from '../common/plain-object';
import { quoteInput } from '../common/quote-input';
import { ToolkitError } from '../errors';
import { describeAjvErrors, ProblemList, SchemaValidators } from '../executor/validation';

/** The most examples a tool may have. */
const MAX_EXAMPLES = 20;

let validators: SchemaValidators | undefined;

/**
 * @internal Checks `@Tool({ examples })` (or an AgentTool's `behaviour.examples`) at registration:
 * a list of at most 20 argument objects, none naming a preset parameter (`presets`: presets are
 * hidden, an example would show one), each valid by the tool's visible `schema`. Returns the
 * examples frozen, or `undefined` when there are none.
 *
 * @throws ToolkitError `INVALID_DEFINITION` naming `owner`, the example's index and the failing paths.
 */
export function checkExamples(examples: unknown, schema: ObjectJsonSchema, presets: readonly string[], owner: string): readonly Readonly<Record<string, unknown>>[] | undefined {
  if (examples === undefined) return undefined;
  if (!Array.isArray(examples) || examples.length > MAX_EXAMPLES) {
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: examples must be an array of at most ${MAX_EXAMPLES} argument objects, e.g. examples: [{ city: 'Paris' }].`);
  }
  if (examples.length === 0) return undefined;
  const validate = (validators ??= new SchemaValidators()).compile(schema);
  examples.forEach((example: unknown, index) => {
    if (!isPlainObject(example)) {
      throw new ToolkitError('INVALID_DEFINITION', `${owner}: example #${index} must be an object of arguments.`);
    }
    const preset = presets.find((name) => Object.prototype.hasOwnProperty.call(example, name));
    if (preset !== undefined) {
      throw new ToolkitError(
        'INVALID_DEFINITION',
        `${owner}: example #${index} names the preset parameter ${quoteInput(preset)}: presets are hidden from the model, so examples may not show them. Remove it from the example.`,
      );
    }
    if (validate(example) === true) return;
    const problems = new ProblemList();
    describeAjvErrors(validate.errors ?? [], example, problems);
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: example #${index} does not fit the tool's parameters:\n${problems.toText()}`);
  });
  return Object.freeze(examples.map((example: Record<string, unknown>) => Object.freeze(structuredClone(example))));
}
