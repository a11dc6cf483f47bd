import type { ValidationError } from 'class-validator';
import type { Constructor } from '../../metadata/records';
import { classTransformer, classValidator } from '../../schema/dto-libraries';

/** How class-validator's `@ArrayUnique()` maps an item before comparing (its identifier, null items kept). */
type Mapper = (item: unknown, index: number, array: unknown[]) => unknown;

/** A validator constraint as class-validator instantiates it: `validate(value, args)`. */
type ConstraintPrototype = { validate?: (value: unknown, args?: unknown) => unknown; defaultMessage?: (args?: unknown) => unknown };

/** The name class-validator gives the `@ArrayUnique()` constraint. */
const ARRAY_UNIQUE = 'arrayUnique';

/** The end of class-validator's default message for `@ArrayUnique()` (after `each value in ` when `each`). */
const ARRAY_UNIQUE_MESSAGE = "All $property's elements must be unique";

/** DTO classes whose class-validator metadata was looked at. */
const seenClasses = new WeakSet<object>();
/** `@ArrayUnique()` constraint classes handled (made linear, or left alone when not as expected). */
const seenConstraints = new WeakSet<object>();

/**
 * class-validator's `arrayUnique(array, identifier)` verdict in linear time: `array.filter((a, i, c)
 * => c.indexOf(a) === i).length === array.length` after `array.map(mapper)`. `indexOf` compares
 * with `===` (`0` equals `-0`), never finds `NaN` and skips holes, so any `NaN` or hole fails.
 */
function linearArrayUnique(value: unknown, mapper: Mapper | null): boolean {
  if (!Array.isArray(value)) return false;
  const items: unknown[] = mapper === null ? value : value.map(mapper);
  const seen = new Set<unknown>();
  for (let i = 0; i < items.length; i++) {
    if (!(i in items)) return false;
    const item = items[i];
    // a Set compares by SameValueZero: as `===` (0 and -0 are one value) except that NaN equals NaN
    if (item !== item || seen.has(item)) return false;
    seen.add(item);
  }
  return true;
}

/**
 * The function class-validator's `@ArrayUnique()` validator maps the array with (`null` when it
 * takes the array as it is), found by handing its `validate` an empty array whose first member
 * read must be `map` (then called with that function) or `filter`; `undefined` when it does
 * anything else, so the constraint is left as it is.
 */
function probeMapper(prototype: ConstraintPrototype, validate: NonNullable<ConstraintPrototype['validate']>): Mapper | null | undefined {
  const stop = {};
  let found: Mapper | null | undefined;
  let reads = 0;
  const probe = new Proxy<unknown[]>([], {
    get(_target, key) {
      if (reads++ === 0 && key === 'map')
        return (mapper: unknown) => {
          if (typeof mapper === 'function') found = mapper as Mapper;
          throw stop;
        };
      if (reads === 1 && key === 'filter') found = null;
      throw stop;
    },
  });
  try {
    validate.call(prototype, probe, { targetName: '', property: '', object: {}, value: probe, constraints: [] });
  } catch (error) {
    if (error === stop) return found;
  }
  return undefined;
}

/** True when `validate` gives class-validator's verdicts on a few arrays without an identifier. */
function agreesWithoutMapper(prototype: ConstraintPrototype, validate: NonNullable<ConstraintPrototype['validate']>): boolean {
  const shared = {};
  const cases: unknown[] = [[], ['a', 'b'], ['a', 'a'], [1, 2, 1], [0, -0], [Number.NaN], [null, null], [shared, {}], [shared, shared], 'ab', null];
  return cases.every((value) => validate.call(prototype, value, { constraints: [] }) === linearArrayUnique(value, null));
}

/**
 * Makes the `validate` of one `@ArrayUnique()` constraint class linear, once. class-validator
 * (`registerDecorator`) makes one such class per decorated property, registered under the name
 * `arrayUnique` (checked, with its default message) and instantiated through its container: its
 * prototype's `validate` is replaced, so every instance any container gives uses the linear
 * check. A class not of that shape, or whose verdicts differ, keeps class-validator's own check.
 */
function makeLinear(constraintClass: unknown): void {
  if (typeof constraintClass !== 'function' || seenConstraints.has(constraintClass)) return;
  seenConstraints.add(constraintClass);
  try {
    replaceValidate(constraintClass as Constructor);
  } catch {
    // not as expected: class-validator's own check stays
  }
}

/** {@link makeLinear}'s work, which may throw when the class is not what class-validator makes. */
function replaceValidate(constraintClass: Constructor): void {
  const registered = classValidator().getMetadataStorage().getTargetValidatorConstraints(constraintClass);
  if (registered.length !== 1 || registered[0].name !== ARRAY_UNIQUE || registered[0].async) return;
  const prototype = (constraintClass as { prototype?: ConstraintPrototype }).prototype;
  if (typeof prototype !== 'object' || prototype === null || !Object.prototype.hasOwnProperty.call(prototype, 'validate')) return;
  const validate = prototype.validate;
  if (typeof validate !== 'function' || typeof prototype.defaultMessage !== 'function') return;
  const message: unknown = prototype.defaultMessage.call(prototype, { targetName: '', property: '', object: {}, value: [], constraints: [] });
  if (typeof message !== 'string' || !message.endsWith(ARRAY_UNIQUE_MESSAGE)) return;
  const mapper = probeMapper(prototype, validate);
  if (mapper === undefined || (mapper === null && !agreesWithoutMapper(prototype, validate))) return;
  prototype.validate = (value: unknown) => linearArrayUnique(value, mapper);
}

/** Makes the `@ArrayUnique()` constraints of `dtoClass` (its own and inherited) linear, once per class. */
function makeClassLinear(dtoClass: object): void {
  if (seenClasses.has(dtoClass)) return;
  seenClasses.add(dtoClass);
  // always, no groups: every constraint of the class, whatever groups a validation uses
  const metadatas = classValidator().getMetadataStorage().getTargetValidationMetadatas(dtoClass as Constructor, '', true, false);
  for (const metadata of metadatas) if (metadata.name === ARRAY_UNIQUE) makeLinear(metadata.constraintCls);
}

/**
 * Walks a DTO instance (arrays, sets, maps, objects, at any depth, with an explicit stack) and
 * makes the `@ArrayUnique()` constraints of each class met linear: class-validator validates a
 * nested object by the metadata of its constructor.
 */
function makeInstanceLinear(root: object): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    if (value instanceof Set || value instanceof Map) {
      for (const item of value.values()) pending.push(item);
      continue;
    }
    const constructor = (value as { constructor?: unknown }).constructor;
    if (typeof constructor === 'function' && constructor !== Object) makeClassLinear(constructor);
    for (const item of Object.values(value)) pending.push(item);
  }
}

/**
 * @internal Turns one plain DTO argument into an instance of `type` (class-transformer) and
 * validates it (class-validator, unknown values allowed). Each `@ArrayUnique()` it meets first
 * checks in time linear in the array's length, with class-validator's verdicts (`===` after its
 * identifier; any `NaN` fails), instead of comparing every pair.
 */
export async function transformAndValidate(type: Constructor, item: object): Promise<{ instance: object; errors: ValidationError[] }> {
  const instance = classTransformer().plainToInstance(type, item) as object;
  makeInstanceLinear(instance);
  const errors = await classValidator().validate(instance, { forbidUnknownValues: false });
  return { instance, errors };
}
