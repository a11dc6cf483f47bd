import type { ContextualTool } from '../../model/agent-tool';
import { isContainerPreset } from '../../di/container-preset';
import { getBound } from '../../di/services';
import type { Attempt } from './attempt';
import type { CallState } from './call-state';
import { isThenable } from './convert';
import { presetSecretsOf, type PresetSecrets } from '../presets/preset-secrets';
import { collectSecrets } from '../presets/redact';
import type { ToolEntry } from '../tool-entry';

/** @internal Runs the tool once for `attempt` with `args`; a contextual tool is given the merged context first. */
export function invokeTarget(run: CallState, entry: ToolEntry, args: Record<string, unknown>, attempt: Attempt): unknown {
  const target = entry.target;
  if (entry.contextual) (target as ContextualTool).setContext(run.resolver().merged(), attempt);
  return target.execute(args, attempt);
}

/** @internal The model's arguments with the tool's preset values added, and what those resolved to at call time (to redact). */
export interface PresetArguments {
  readonly args: Record<string, unknown>;
  /** The texts of the values resolved at call time (not fixed ones); `undefined`: none. */
  readonly secrets: Set<string> | undefined;
}

/**
 * @internal The model's arguments with the tool's preset values added, resolved now for `attempt`
 * (plain values, functions, `fromContainer`); a Promise while call-time presets resolve (which
 * counts against the attempt's timeout).
 */
export function resolvePresets(run: CallState, entry: ToolEntry, attempt: Attempt): PresetArguments | Promise<PresetArguments> {
  const merged = { ...run.args };
  const book = presetSecretsOf(entry);
  const found: Found = { args: merged, secrets: undefined };
  let pending: Promise<void>[] | undefined;
  for (const { name, value } of entry.presets!) {
    let resolved: unknown = value;
    if (typeof value === 'function') resolved = (value as (ctx: Attempt) => unknown)(attempt);
    else if (isContainerPreset(value)) resolved = getBound(run.parts.container, value.token);
    if (isThenable(resolved)) (pending ??= []).push(Promise.resolve(resolved).then((v) => setPreset(book, merged, found, name, v)));
    else setPreset(book, merged, found, name, resolved);
  }
  return pending === undefined ? found : Promise.all(pending).then(() => found);
}

/** {@link PresetArguments} while the presets resolve. */
interface Found {
  readonly args: Record<string, unknown>;
  secrets: Set<string> | undefined;
}

function setPreset(book: PresetSecrets, target: Record<string, unknown>, found: Found, name: string, value: unknown): void {
  target[name] = value;
  // A fixed preset's value is known already (the common case: one lookup).
  if (typeof value === 'string' && book.isFixed(value)) return;
  // Every shape counts: strings, the decimal text of numbers, the leaves of objects (see collectSecrets).
  const own = (found.secrets ??= new Set());
  const leaves = new Set<string>();
  collectSecrets(value, leaves);
  for (const secret of leaves) own.add(secret);
  book.remember(leaves);
}
