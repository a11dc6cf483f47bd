import { randomBytes } from 'node:crypto';
import { ToolkitError } from '../../../errors';
import type { McpStateStore } from './state-store';

/** The environment variable a fleet's shared state key is read from when `stateSecret` is not given. */
export const STATE_SECRET_ENV = 'TOOLWRIGHT_MCP_STATE_SECRET';
/** The shortest state key accepted, in bytes. */
const MIN_SECRET_BYTES = 32;
/** The per-process key used when neither `stateSecret` nor the environment gives one. */
let processSecret: Uint8Array | undefined;

/** @internal The options of 2026-07-28 serving that a handler checks when it is made. */
export interface ModernStateOptions {
  readonly stateSecret?: string | Uint8Array | undefined;
  readonly stateStore?: McpStateStore | undefined;
  readonly bus?: { publish: unknown; subscribe: unknown } | undefined;
}

function invalid(message: string): ToolkitError {
  return new ToolkitError('INVALID_OPTIONS', message);
}

function bytesOf(secret: string | Uint8Array): Uint8Array {
  return typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
}

/**
 * @internal The key that signs state of 2026-07-28 requests: `stateSecret`, else
 * `TOOLWRIGHT_MCP_STATE_SECRET`, else a random key made once per process. Throws
 * `INVALID_OPTIONS` for a key shorter than 32 bytes (the message names where it came from, never
 * the key).
 */
export function resolveStateSecret(secret: string | Uint8Array | undefined, env: NodeJS.ProcessEnv = process.env): Uint8Array {
  if (secret !== undefined) {
    if (typeof secret !== 'string' && !(secret instanceof Uint8Array)) throw invalid('MCP option stateSecret must be a string or a Uint8Array.');
    const bytes = bytesOf(secret);
    if (bytes.length < MIN_SECRET_BYTES) throw invalid(`MCP option stateSecret must be at least ${MIN_SECRET_BYTES} bytes long, got ${bytes.length}.`);
    return Uint8Array.from(bytes);
  }
  const fromEnv = env[STATE_SECRET_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    const bytes = bytesOf(fromEnv);
    if (bytes.length < MIN_SECRET_BYTES) throw invalid(`The environment variable ${STATE_SECRET_ENV} must hold at least ${MIN_SECRET_BYTES} bytes, got ${bytes.length}.`);
    return Uint8Array.from(bytes);
  }
  return (processSecret ??= Uint8Array.from(randomBytes(MIN_SECRET_BYTES)));
}

/** @internal Throws `INVALID_OPTIONS` for an invalid `stateSecret` (or environment key), `stateStore` or `bus`. */
export function checkModernOptions(options: ModernStateOptions): void {
  resolveStateSecret(options.stateSecret);
  const store = options.stateStore as Partial<Record<keyof McpStateStore, unknown>> | undefined;
  if (store !== undefined) {
    const methods: (keyof McpStateStore)[] = ['setIfAbsent', 'set', 'get', 'delete'];
    const missing = methods.filter((m) => typeof store?.[m] !== 'function');
    if (store === null || missing.length > 0) throw invalid(`MCP option stateStore must be an McpStateStore (missing: ${missing.join(', ') || 'an object'}).`);
  }
  const bus = options.bus;
  if (bus !== undefined && (bus === null || typeof bus.publish !== 'function' || typeof bus.subscribe !== 'function')) {
    throw invalid('MCP option bus must be a ServerEventBus (an object with publish and subscribe methods).');
  }
}
