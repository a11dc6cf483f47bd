type NotificationHandler = (...args: unknown[]) => Promise<void> | void;
const LIST_CHANGED = 'notifications/tools/list_changed';

/**
 * @internal Installs `handler` for `notifications/tools/list_changed` on `client` after the one
 * already there (the client's own `listChanged` option, another import), which it calls first;
 * the returned function puts that one back, when `handler`'s is still the installed one.
 */
export function chainListChanged(
  client: { removeNotificationHandler(method: string): void },
  install: (handler: (...args: unknown[]) => Promise<void>) => void,
  onChange: () => void,
): () => void {
  const handlers = (client as unknown as { _notificationHandlers?: unknown })._notificationHandlers;
  const map = handlers instanceof Map ? (handlers as Map<string, NotificationHandler>) : undefined;
  const previous = map?.get(LIST_CHANGED);
  install(async (...args: unknown[]) => {
    if (previous) await Promise.resolve(previous(...args)).catch(() => undefined);
    onChange();
  });
  const ours = map?.get(LIST_CHANGED);
  return () => {
    if (map === undefined || ours === undefined || map.get(LIST_CHANGED) !== ours) return;
    if (previous) map.set(LIST_CHANGED, previous);
    else client.removeNotificationHandler(LIST_CHANGED);
  };
}
