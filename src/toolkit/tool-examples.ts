import type { ObjectJsonSchema } from '../model/json-schema';
import { isPlainObject } from '../utils/plain-object';
import { quoteInput } from '../utils/quote-input';
import { isContainerPreset } from '../di/container-preset';
import { ToolkitError } from '../errors';
import type { PresetValue } from '../executor/presets/presets';
import { collectSecrets, literalScrub } from '../executor/presets/redact';
import { describeAjvErrors, ProblemList, SchemaValidators } from '../executor/validation/validation';

/** The most examples a tool may have. */
const MAX_EXAMPLES = 20;
/** The most characters of JSON one example may have (every definition sent to the model carries it). */
const MAX_EXAMPLE_CHARS = 4096;

/** The JSON text of an example, or `undefined` when it is no JSON data (a cycle, a bigint). */
function jsonOf(example: Record<string, unknown>): string | undefined {
  try {
    return JSON.stringify(example);
  } catch {
    return undefined;
  }
}

/** A scrub that changes any text holding a fixed preset value in any of its forms (call-time presets are unknown here). */
function presetScrub(presets: readonly { readonly name: string; readonly value: PresetValue }[]) {
  const secrets = new Set<string>();
  for (const { value } of presets) if (typeof value !== 'function' && !isContainerPreset(value)) collectSecrets(value, secrets);
  return literalScrub(secrets);
}

let validators: SchemaValidators | undefined;

/**
 * @internal Checks `@Tool({ examples })` (or an AgentTool's `behaviour.examples`) at registration:
 * a list of at most 20 argument objects of JSON data (at most 4,096 characters of JSON each), none
 * naming a preset parameter or showing a fixed preset's value (`presets`: presets are hidden, an
 * example would show one), each valid by the tool's visible `schema`. Returns the
 * examples frozen, or `undefined` when there are none.
 *
 * @throws ToolkitError `INVALID_DEFINITION` naming `owner`, the example's index and the failing paths.
 */
export function checkExamples(
  examples: unknown,
  schema: ObjectJsonSchema,
  presets: readonly { readonly name: string; readonly value: PresetValue }[],
  owner: string,
): readonly Readonly<Record<string, unknown>>[] | undefined {
  if (examples === undefined) return undefined;
  if (!Array.isArray(examples) || examples.length > MAX_EXAMPLES) {
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: examples must be an array of at most ${MAX_EXAMPLES} argument objects, e.g. examples: [{ city: 'Paris' }].`);
  }
  if (examples.length === 0) return undefined;
  const validate = (validators ??= new SchemaValidators()).compile(schema);
  const scrub = presetScrub(presets);
  examples.forEach((example: unknown, index) => {
    if (!isPlainObject(example)) {
      throw new ToolkitError('INVALID_DEFINITION', `${owner}: example #${index} must be an object of arguments.`);
    }
    const text = jsonOf(example);
    if (text === undefined) throw new ToolkitError('INVALID_DEFINITION', `${owner}: example #${index} is not JSON data (a cycle or a bigint): write it as plain JSON values.`);
    if (text.length > MAX_EXAMPLE_CHARS) {
      throw new ToolkitError('INVALID_DEFINITION', `${owner}: example #${index} is ${text.length} characters of JSON, over the ${MAX_EXAMPLE_CHARS} an example may have.`);
    }
    if (scrub !== undefined && scrub(text) !== text) {
      throw new ToolkitError('INVALID_DEFINITION', `${owner}: example #${index} shows the value of a preset parameter: presets are hidden from the model. Remove it from the example.`);
    }
    const preset = presets.map(({ name }) => name).find((name) => Object.prototype.hasOwnProperty.call(example, name));
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
