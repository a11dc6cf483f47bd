import { describeThrown } from '../errors';

/** @internal The default `onCallbackError` of an `ApprovalManager`: one process warning, the first time. */
export function warnOnce(): (error: unknown, source: string) => void {
  let warned = false;
  return (error, source) => {
    if (warned) return;
    warned = true;
    process.emitWarning(`A subscriber of ApprovalManager.${source} threw (${describeThrown(error)}); pass onCallbackError to handle it.`, { code: 'TOOLWRIGHT_CALLBACK_FAILED' });
  };
}

/** @internal `onCallbackError` is a user callback too: what it throws goes to the one-time warning, never into RxJS. */
export function reportSafely(onCallbackError: (error: unknown, source: string) => void): (error: unknown, source: string) => void {
  let warned = false;
  return (error, source) => {
    try {
      onCallbackError(error, source);
    } catch (failure) {
      if (warned) return;
      warned = true;
      process.emitWarning(`ApprovalManager's onCallbackError threw (${describeThrown(failure)}) while reporting a failure of ${source}.`, { code: 'TOOLWRIGHT_CALLBACK_FAILED' });
    }
  };
}
