import type { Subscription } from 'rxjs';
import type { Toolkit, ToolEvent } from '../../src';

/** What {@link recordEvents} keeps: every event so far, those of one type, and `stop()`. */
export interface EventRecording {
  readonly events: ToolEvent[];
  of<T extends ToolEvent['type']>(type: T): Extract<ToolEvent, { type: T }>[];
  stop(): void;
}

/** Records every event of `toolkit.events$` until `stop()`. */
export function recordEvents(toolkit: Toolkit): EventRecording {
  const events: ToolEvent[] = [];
  const subscription: Subscription = toolkit.events$.subscribe((e) => events.push(e));
  return {
    events,
    of: <T extends ToolEvent['type']>(type: T) => events.filter((e): e is Extract<ToolEvent, { type: T }> => e.type === type),
    stop: () => subscription.unsubscribe(),
  };
}

/** The events' JSON text, with Error objects written out (JSON.stringify drops their fields). */
export function eventsText(events: readonly ToolEvent[]): string {
  return JSON.stringify(events, (_key, value: unknown) =>
    value instanceof Error ? { name: value.name, message: value.message, stack: value.stack, cause: value.cause } : value,
  );
}
