import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { ViewChange } from '../server/modern/caller-views';

/** The `_meta` key of a bus event meant for one audience only (a keyed tag of a principal or a conversation). */
const AUDIENCE_KEY = 'io.toolwright/audience';

const KIND_OF: Readonly<Record<ViewChange, ServerEvent['kind']>> = {
  tools: 'tools_list_changed',
  resources: 'resources_list_changed',
  prompts: 'prompts_list_changed',
};

/** @internal The bus event of `change` for `audience` alone. */
export function audienceEvent(change: ViewChange, audience: string): ServerEvent {
  return { kind: KIND_OF[change], params: { _meta: { [AUDIENCE_KEY]: audience } } } as ServerEvent;
}

/** `event` without its audience mark (what the stream sends the client). */
function unmarked(event: ServerEvent, meta: Record<string, unknown>): ServerEvent {
  const rest = Object.fromEntries(Object.entries(meta).filter(([key]) => key !== AUDIENCE_KEY));
  const params: Record<string, unknown> = { ...event.params };
  delete params._meta;
  if (Object.keys(rest).length > 0) params._meta = rest;
  const { params: _dropped, ...bare } = event;
  return (Object.keys(params).length > 0 ? { ...bare, params } : bare) as ServerEvent;
}

/**
 * @internal A bus in front of `bus` for the SDK's listen router: a listener registered while a
 * `subscriptions/listen` request is served (the SDK subscribes synchronously, inside the request)
 * hears every event without an audience, and an event with one only when `audienceOf()` (the
 * request's audience tags) holds it; the mark is removed before the stream sees the event. Events
 * pass through `bus` unchanged, so a fleet's shared bus carries the marks between processes.
 */
export function audienceBus(bus: ServerEventBus, audienceOf: () => ReadonlySet<string>): ServerEventBus {
  return {
    publish: (event) => bus.publish(event),
    subscribe: (listener) => {
      const audience = audienceOf();
      return bus.subscribe((event) => {
        const meta = event.params?._meta as Record<string, unknown> | undefined;
        const target = meta?.[AUDIENCE_KEY];
        if (target === undefined) return listener(event);
        if (typeof target === 'string' && audience.has(target)) listener(unmarked(event, meta!));
      });
    },
  };
}
