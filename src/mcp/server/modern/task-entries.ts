import { createHmac, timingSafeEqual } from 'node:crypto';
import type { McpStateStore } from './state-store';

/** The statuses of a task of the `io.modelcontextprotocol/tasks` extension. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * @internal A protocol-level failure of a task's call (its tool threw a JSON-RPC error): the task
 * ends `failed` with this code and message, not `completed` with an error result.
 */
export class TaskProtocolFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'TaskProtocolFailure';
  }
}

/** @internal What a running task's call can do. */
export interface TaskRun {
  /** The task's id. */
  readonly taskId: string;
  /** Fires when the task is cancelled (on any process), reaches its TTL, or the server closes. */
  readonly signal: AbortSignal;
  /**
   * Parks the task `input_required` with `request` (e.g. an `elicitation/create` request) under a
   * new opaque key, and resolves with the client's answer once `tasks/update` delivers it (to any
   * process). Concurrent calls wait together, each for its own key.
   */
  requestInput(request: Readonly<Record<string, unknown>>): Promise<unknown>;
  /**
   * Sets the task's `statusMessage` (cut to 200 characters) for `tasks/get` on any process: written
   * to the store on the next poll tick, so a flood of reports costs one write per `pollIntervalMs`.
   */
  report(statusMessage: string): void;
}

/** @internal What is fixed when a task is created: `task:<id>`. */
export interface TaskRecord {
  readonly taskId: string;
  /** The owner's tag (an HMAC of who created the task: the identity itself is not stored). */
  readonly owner: string;
  readonly createdAt: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
}

/** @internal A running task's status: `task:<id>:state`, written by the process that runs it. */
export interface TaskProgress {
  readonly status: 'working' | 'input_required';
  readonly lastUpdatedAt: string;
  /** The requests the task waits on, by opaque key (`input_required` only). */
  readonly inputRequests?: Readonly<Record<string, unknown>> | undefined;
  /** The tool's last progress, as text (at most {@link MAX_STATUS_MESSAGE_CHARS} characters). */
  readonly statusMessage?: string | undefined;
}

/** @internal The longest `statusMessage` a task shows. */
export const MAX_STATUS_MESSAGE_CHARS = 200;

/** @internal How a task ended: `task:<id>:end`, written once (the first writer wins: the run or a cancel). */
export interface TaskEnd {
  readonly status: 'completed' | 'failed' | 'cancelled';
  readonly lastUpdatedAt: string;
  readonly statusMessage?: string | undefined;
  /** The tool's result (`completed`). */
  readonly result?: Readonly<Record<string, unknown>> | undefined;
  /** The JSON-RPC error (`failed`). */
  readonly error?: { readonly code: number; readonly message: string } | undefined;
}

/** @internal The store keys of one task. */
export const taskKeys = (taskId: string) =>
  ({
    record: `task:${taskId}`,
    progress: `task:${taskId}:state`,
    end: `task:${taskId}:end`,
    answer: (key: string) => `task:${taskId}:answer:${key}`,
    alive: `task:${taskId}:alive`,
  }) as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isTime = (value: unknown): value is string => typeof value === 'string' && value.length <= 40 && !Number.isNaN(Date.parse(value));
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 1;

/** Checks of what a store entry must look like, by kind: a forged or stale shape reads as absent. */
const SHAPES = {
  record: (v: Record<string, unknown>): boolean =>
    typeof v.taskId === 'string' && typeof v.owner === 'string' && isTime(v.createdAt) && isCount(v.ttlMs) && isCount(v.pollIntervalMs),
  progress: (v: Record<string, unknown>): boolean =>
    (v.status === 'working' || v.status === 'input_required') &&
    isTime(v.lastUpdatedAt) &&
    (v.inputRequests === undefined || isObject(v.inputRequests)) &&
    (v.statusMessage === undefined || (typeof v.statusMessage === 'string' && v.statusMessage.length <= MAX_STATUS_MESSAGE_CHARS)),
  end: (v: Record<string, unknown>): boolean =>
    (v.status === 'completed' || v.status === 'failed' || v.status === 'cancelled') &&
    isTime(v.lastUpdatedAt) &&
    (v.result === undefined || isObject(v.result)) &&
    (v.error === undefined || (isObject(v.error) && typeof v.error.code === 'number' && typeof v.error.message === 'string')),
  answer: (v: Record<string, unknown>): boolean => 'value' in v,
} as const;

type Kind = keyof typeof SHAPES;
type Shape<K extends Kind> = K extends 'record' ? TaskRecord : K extends 'progress' ? TaskProgress : K extends 'end' ? TaskEnd : { readonly value: unknown };

/**
 * @internal Reads and writes a task's entries in an {@link McpStateStore}, each signed with a key
 * derived from the server's state secret and bound to its store key: an entry written into the
 * store by anyone else (or copied from another task) reads as absent.
 */
export class TaskEntries {
  private readonly key: Buffer;

  constructor(
    private readonly store: McpStateStore,
    secret: string | Uint8Array,
    private readonly onForged: (key: string) => void,
  ) {
    this.key = createHmac('sha256', secret).update('toolwright/mcp tasks v1').digest();
  }

  /** A tag of `owner` that stands for it in the store. */
  ownerTag(owner: string): string {
    return createHmac('sha256', this.key).update(`owner\n${owner}`).digest('base64url');
  }

  /** Writes `value` under `key` (only when absent with `ifAbsent`): `true` when written. */
  async write<K extends Kind>(kind: K, key: string, value: Shape<K>, ttlMs: number, ifAbsent = false): Promise<boolean> {
    const json = JSON.stringify(value);
    const entry = `${this.mac(key, json)}.${json}`;
    if (ifAbsent) return this.store.setIfAbsent(key, entry, ttlMs);
    await this.store.set(key, entry, ttlMs);
    return true;
  }

  /** The entry under `key` when it is there, signed by this server, and of the right shape; else `undefined`. */
  async read<K extends Kind>(kind: K, key: string): Promise<Shape<K> | undefined> {
    const entry = await this.store.get(key);
    if (entry === undefined) return undefined;
    const dot = entry.indexOf('.');
    const json = entry.slice(dot + 1);
    const given = Buffer.from(entry.slice(0, Math.max(dot, 0)), 'base64url');
    const expected = Buffer.from(this.mac(key, json), 'base64url');
    let value: unknown;
    if (dot > 0 && given.length === expected.length && timingSafeEqual(given, expected)) {
      try {
        value = JSON.parse(json);
      } catch {
        value = undefined;
      }
    }
    if (!isObject(value) || !SHAPES[kind](value)) {
      this.onForged(key);
      return undefined;
    }
    return value as Shape<K>;
  }

  private mac(key: string, json: string): string {
    return createHmac('sha256', this.key).update(`${key}\n${json}`).digest('base64url');
  }
}
