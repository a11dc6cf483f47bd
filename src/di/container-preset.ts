const FROM_CONTAINER = Symbol.for('toolwright.preset.fromContainer');

/** A preset resolved from the Inversify container at call time. */
export interface ContainerPreset {
  readonly [FROM_CONTAINER]: true;
  /** The service identifier to resolve. */
  readonly token: unknown;
}

/**
 * A preset resolved from the toolkit's Inversify container at call time.
 *
 * @example
 * .presetParameters({ send_email: { apiKey: fromContainer(EMAIL_API_KEY) } })
 */
export function fromContainer(token: unknown): ContainerPreset {
  return { [FROM_CONTAINER]: true, token };
}

/** @internal */
export function isContainerPreset(value: unknown): value is ContainerPreset {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[FROM_CONTAINER] === true;
}
