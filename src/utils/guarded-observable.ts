import { Observable, Subscriber, type Observer, type OperatorFunction, type Subscription, type TeardownLogic } from 'rxjs';

/** The call a failed callback belonged to, when it belonged to one. */
export interface CallbackCall {
  readonly callId: string;
  readonly tool: string;
  readonly sessionId?: string;
}

/** Receives what a user callback threw (`source` names the stream or option it was given to). */
export type CallbackFailureReporter = (error: unknown, source: string, call?: CallbackCall) => void;

type Subscribe<T> = (this: Observable<T>, subscriber: Subscriber<T>) => TeardownLogic;

/**
 * @internal An Observable whose subscribers cannot crash the process: what a subscriber's
 * `next`/`error`/`complete` throws — and an error no subscriber handles — goes to `report`
 * instead of RxJS's asynchronous rethrow (an `uncaughtException`). Operators keep the guard
 * (`pipe(...)` makes guarded Observables too), so `events$.pipe(filter(…)).subscribe(fn)` is
 * isolated as well. Internal subscribers (operators, `firstValueFrom`) pass through untouched.
 */
export class GuardedObservable<T> extends Observable<T> {
  constructor(
    private readonly report: CallbackFailureReporter,
    private readonly sourceName: string,
    subscribe?: Subscribe<T>,
  ) {
    super(subscribe);
  }

  /** `source` behind a guard. */
  static of<T>(source: Observable<T>, report: CallbackFailureReporter, sourceName: string): GuardedObservable<T> {
    return new GuardedObservable<T>(report, sourceName, (subscriber) => source.subscribe(subscriber));
  }

  /** @internal Keeps the guard through operators. */
  override lift<R>(operator?: OperatorFunction<T, R> | unknown): Observable<R> {
    const observable = new GuardedObservable<R>(this.report, this.sourceName);
    // RxJS's own lift does exactly this: the lifted Observable subscribes through `operator` to `this`
    (observable as unknown as { source: Observable<T> }).source = this;
    (observable as unknown as { operator: unknown }).operator = operator;
    return observable;
  }

  override subscribe(
    observerOrNext?: Partial<Observer<T>> | ((value: T) => void) | null,
    onError?: ((error: unknown) => void) | null,
    onComplete?: (() => void) | null,
  ): Subscription {
    if (observerOrNext instanceof Subscriber) return super.subscribe(observerOrNext);
    // RxJS's (deprecated) positional form: subscribe(next, error, complete)
    const observer: Partial<Observer<T>> =
      typeof observerOrNext === 'function' || observerOrNext == null
        ? { ...(observerOrNext ? { next: observerOrNext } : {}), ...(onError ? { error: onError } : {}), ...(onComplete ? { complete: onComplete } : {}) }
        : observerOrNext;
    const guard = <A>(callback: ((value: A) => void) | undefined): ((value: A) => void) | undefined =>
      callback === undefined
        ? undefined
        : (value: A): void => {
            try {
              callback.call(observer, value);
            } catch (error) {
              this.report(error, this.sourceName);
            }
          };
    const completed = guard<void>(observer.complete);
    return super.subscribe({
      next: guard(observer.next),
      error: guard(observer.error) ?? ((error: unknown) => this.report(error, this.sourceName)),
      ...(completed !== undefined ? { complete: () => completed() } : {}),
    });
  }
}

/**
 * @internal Calls a user callback; what it throws goes to `report` (never into the caller).
 */
export function callSafely<A>(callback: (value: A) => unknown, value: A, report: CallbackFailureReporter, source: string, call?: CallbackCall): void {
  try {
    callback(value);
  } catch (error) {
    report(error, source, call);
  }
}
