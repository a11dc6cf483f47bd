import type { Subject } from 'rxjs';
import type { CallbackFailureReporter } from '../utils/guarded-observable';
import { describeThrown } from '../errors/toolkit-error';
import type { ToolEvent } from '../executor/event-types';

/**
 * Reports a user callback's failure as a `callback_failed` event; a failure while that event is
 * delivered is dropped (a subscriber that throws on everything is not told in a loop). With no
 * one listening, one process warning says where to look.
 */
export function callbackFailureReporter(events: Subject<ToolEvent>): CallbackFailureReporter {
  let delivering = false;
  let warned = false;
  return (error, source, call) => {
    if (delivering) return;
    if (!events.observed) {
      if (!warned) {
        warned = true;
        process.emitWarning(`A callback given to ${source} threw (${describeThrown(error)}); subscribe to toolkit.events$ for 'callback_failed' events.`, {
          code: 'TOOLWRIGHT_CALLBACK_FAILED',
        });
      }
      return;
    }
    delivering = true;
    try {
      events.next({ type: 'callback_failed', source, error, ...call, timestamp: Date.now() });
    } finally {
      delivering = false;
    }
  };
}
