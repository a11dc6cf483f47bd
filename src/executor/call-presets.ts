import type { ContextualTool } from '../common/agent-tool';
import { isContainerPreset } from '../di/container-preset';
import { getBound } from '../di/services';
import type { Attempt } from './attempt';
import { resolverOf, type CallState } from './call-state';
import { isThenable } from './convert';
import { presetSecretsOf, type PresetSecrets } from './preset-secrets';
import { collectSecrets } from './redact';
import type { ToolEntry } from './tool-entry';

/** @internal Runs the tool once for `attempt` with `args`; a contextual tool is given the merged context first. */
export function invokeTarget(run: CallState, entry: ToolEntry, args: Record<string, unknown>, attempt: Attempt): unknown {
  const target = entry.target;
  if (entry.contextual) (target as ContextualTool).setContext(resolverOf(run).merged(), attempt);
  return target.execute(args, attempt);
}

/**
 * @internal Runs the tool once for `attempt`, the model's arguments with its preset values added
 * (resolved now: plain values, functions, `fromContainer`). Returns what the tool returned (a
 * Promise while call-time presets resolve).
 */
export function invokeWithPresets(run: CallState, entry: ToolEntry, attempt: Attempt): unknown {
  const merged = resolvePresets(run, entry, attempt);
  if (!(merged instanceof Promise)) return invokeTarget(run, entry, merged, attempt);
  // Preset resolution (a secret store…) counts against the attempt's timeout; a timed-out or
  // aborted attempt never reaches the tool.
  return merged.then((full) => (attempt.live ? invokeTarget(run, entry, full, attempt) : undefined));
}

function resolvePresets(run: CallState, entry: ToolEntry, attempt: Attempt): Record<string, unknown> | Promise<Record<string, unknown>> {
  const merged = { ...run.args };
  const book = presetSecretsOf(entry);
  let pending: Promise<void>[] | undefined;
  for (const { name, value } of entry.presets!) {
    let resolved: unknown = value;
    if (typeof value === 'function') resolved = (value as (ctx: Attempt) => unknown)(attempt);
    else if (isContainerPreset(value)) resolved = getBound(run.core.container, value.token);
    if (isThenable(resolved)) (pending ??= []).push(Promise.resolve(resolved).then((v) => setPreset(run, book, merged, name, v)));
    else setPreset(run, book, merged, name, resolved);
  }
  return pending === undefined ? merged : Promise.all(pending).then(() => merged);
}

function setPreset(run: CallState, book: PresetSecrets, target: Record<string, unknown>, name: string, value: unknown): void {
  target[name] = value;
  // A fixed preset's value is known already (the common case: one lookup).
  if (typeof value === 'string' && book.isFixed(value)) return;
  // Every shape counts: strings, the decimal text of numbers, the leaves of objects (see collectSecrets).
  const own = (run.secrets ??= new Set());
  const found = new Set<string>();
  collectSecrets(value, found);
  for (const secret of found) own.add(secret);
  book.remember(found);
}
