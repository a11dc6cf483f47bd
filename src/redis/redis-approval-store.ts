import { Redis } from 'ioredis';
import { ToolkitError, describeThrown } from '../errors';
import {
  MAX_STORED_CHARS,
  parseAudit,
  parseRemembered,
  parseStored,
  storedText,
  type ApprovalAuditRecord,
  type ApprovalStore,
  type ApprovalStoreVerdict,
  type StoredApproval,
} from '../pipeline/approval-store';
import type { RememberedDecision } from '../pipeline/approval-types';
import { isRedisClient, redisAddressOf, type RedisConnection } from './redis-connection';


/**
 * Options of {@link redisApprovalStore}.
 *
 * @example
 * redisApprovalStore({ connection: { host: 'redis.internal', port: 6379, password }, prefix: 'payments:approvals' });
 */
export interface RedisApprovalStoreOptions {
  /** The Redis to use: ioredis options or an ioredis client (duplicated). */
  readonly connection: RedisConnection;
  /** The start of every key (default `'toolwright:approvals'`); the keys are `{prefix}:…`, one Redis Cluster slot. */
  readonly prefix?: string | undefined;
  /** How long one command may take before the operation fails with `APPROVAL_STORE_FAILED` (default 5,000 ms). */
  readonly commandTimeoutMs?: number | undefined;
}

/** An {@link ApprovalStore} in Redis; `close()` ends its connections. */
export interface RedisApprovalStore extends ApprovalStore {
  /** Ends the store's own connections (a client you passed stays open). */
  close(): Promise<void>;
}

const HOLD = `
if redis.call('HEXISTS', KEYS[4], ARGV[1]) == 1 or redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PUBLISH', ARGV[5], 'held')
return 1`;

const DECIDE = `
if redis.call('HEXISTS', KEYS[4], ARGV[1]) == 1 then return 'not-pending' end
local digest = redis.call('HGET', KEYS[3], ARGV[1])
if not digest or redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return 'not-pending' end
if digest ~= ARGV[2] then return 'changed' end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[3])
redis.call('LPUSH', KEYS[5], ARGV[4])
redis.call('PUBLISH', ARGV[5], 'decided')
return 'decided'`;

const FORGET = `
local keys = redis.call('SMEMBERS', KEYS[2])
for i = 1, #keys do redis.call('HDEL', KEYS[1], keys[i]) end
redis.call('DEL', KEYS[2])
return #keys`;

/**
 * A shared {@link ApprovalStore} in Redis, for `new ApprovalManager({ store })`. Held calls,
 * tombstones, the audit trail (newest first) and remembered decisions live under `{prefix}:…`;
 * holding and deciding are Lua scripts (atomic: one decision per call fleet-wide); every change
 * is published on `{prefix}:changed`, so that each manager sharing the store refreshes its
 * pending list. Tombstones and audit records are kept until you delete them. A Redis that does
 * not answer makes each operation fail (`APPROVAL_STORE_FAILED`, naming the address and the
 * cause): a call is then not held, and a decision not taken; nothing runs.
 *
 * @throws ToolkitError `INVALID_OPTIONS` when `connection` is neither ioredis options nor a client,
 *   or `prefix` is empty or holds a brace.
 *
 * @example
 * const store = redisApprovalStore({ connection: { host: '127.0.0.1', port: 6379 } });
 * const approvals = new ApprovalManager({ tools: ['send_payment'], store, contexts: { user: UserContext } });
 * // on any replica: await approvals.approve(id, { toolkit, decidedBy: 'ann' });
 * await store.close();
 */
export function redisApprovalStore(options: RedisApprovalStoreOptions): RedisApprovalStore {
  const { connection } = options;
  if (connection === null || typeof connection !== 'object') {
    throw new ToolkitError('INVALID_OPTIONS', 'redisApprovalStore: connection must be ioredis options ({ host, port, … }) or an ioredis client.');
  }
  const prefix = options.prefix ?? 'toolwright:approvals';
  if (typeof prefix !== 'string' || prefix === '' || /[{}]/.test(prefix)) throw new ToolkitError('INVALID_OPTIONS', 'redisApprovalStore: prefix must be a non-empty string without { or } (the store wraps it in braces).');
  return new RedisApprovals(connection, prefix, options.commandTimeoutMs ?? 5_000);
}

class RedisApprovals implements RedisApprovalStore {
  private readonly address: string;
  private readonly redis: Redis;
  private subscriber: Redis | undefined = undefined;
  private readonly listeners = new Set<() => void>();
  private readonly keys: { pending: string; records: string; digests: string; decided: string; audit: string; remembered: string; channel: string };
  private closed = false;

  constructor(
    private readonly connection: RedisConnection,
    private readonly prefix: string,
    private readonly commandTimeoutMs: number,
  ) {
    this.address = redisAddressOf(isRedisClient(connection) ? connection.options : connection);
    const k = (name: string): string => `{${prefix}}:${name}`;
    this.keys = { pending: k('pending'), records: k('records'), digests: k('digests'), decided: k('decided'), audit: k('audit'), remembered: k('remembered'), channel: k('changed') };
    this.redis = this.client();
  }

  /** A client of the store's own: a failed command fails fast instead of waiting for Redis to come back. */
  private client(): Redis {
    const overrides = { maxRetriesPerRequest: 1, commandTimeout: this.commandTimeoutMs, disconnectTimeout: 200 };
    const client = isRedisClient(this.connection) ? this.connection.duplicate(overrides) : new Redis({ ...this.connection, ...overrides });
    client.on('error', () => undefined); // each operation reports its own failure
    return client;
  }

  private async run<T>(what: string, operation: (redis: Redis) => Promise<T>): Promise<T> {
    if (this.closed) throw new ToolkitError('APPROVAL_STORE_FAILED', `The Redis approval store ('${this.prefix.slice(0, 80)}') is closed.`);
    try {
      return await operation(this.redis);
    } catch (error) {
      throw new ToolkitError('APPROVAL_STORE_FAILED', `Redis at ${this.address} failed to ${what}: ${describeThrown(error).slice(0, 200)}`, { cause: error });
    }
  }

  async hold(record: StoredApproval): Promise<boolean> {
    const text = storedText(record);
    if (text.length > MAX_STORED_CHARS) throw new ToolkitError('APPROVAL_STORE_FAILED', `A held call of ${text.length} characters is over the ${MAX_STORED_CHARS} a store keeps.`);
    const { pending, records, digests, decided, channel } = this.keys;
    const { id, createdAt } = record.approval;
    const written = await this.run('hold a call', (r) => r.eval(HOLD, 4, pending, records, digests, decided, id, String(createdAt), text, record.digest, channel));
    return written === 1;
  }

  async list(): Promise<readonly StoredApproval[]> {
    return this.run('list the pending calls', async (r) => {
      const ids = await r.zrange(this.keys.pending, 0, 9_999);
      if (ids.length === 0) return [];
      const [texts, digests] = await this.both<(string | null)[]>(r.multi().hmget(this.keys.records, ...ids).hmget(this.keys.digests, ...ids));
      return ids.map((_, i) => parseStored(texts[i], digests[i])).filter((record): record is StoredApproval => record !== undefined);
    });
  }

  async get(id: string): Promise<StoredApproval | undefined> {
    return this.run('read a pending call', async (r) => {
      // one transaction: a decision in between cannot leave a record without its digest
      const [text, digest] = await this.both<string | null>(r.multi().hget(this.keys.records, id).hget(this.keys.digests, id));
      return text === null ? undefined : (parseStored(text, digest) ?? { approval: {} as StoredApproval['approval'], digest: '' });
    });
  }

  /** The two replies of a two-command transaction. */
  private async both<T>(batch: ReturnType<Redis['multi']>): Promise<[T, T]> {
    const replies = await batch.exec();
    if (replies === null) throw new Error('the transaction was discarded');
    const failed = replies.find(([error]) => error !== null);
    if (failed) throw failed[0]!;
    return [replies[0]![1] as T, replies[1]![1] as T];
  }

  async decisionOf(id: string): Promise<'approved' | 'rejected' | undefined> {
    const text = await this.run('read a decision', (r) => r.hget(this.keys.decided, id));
    const decision = text === null ? undefined : (JSON.parse(text) as { decision?: unknown }).decision;
    return decision === 'approved' || decision === 'rejected' ? decision : undefined;
  }

  async decide(entry: ApprovalAuditRecord): Promise<ApprovalStoreVerdict> {
    const { pending, records, digests, decided, audit, channel } = this.keys;
    const tombstone = JSON.stringify({ decision: entry.decision, decidedAt: entry.decidedAt });
    const verdict = await this.run('decide a call', (r) => r.eval(DECIDE, 5, pending, records, digests, decided, audit, entry.id, entry.digest, tombstone, JSON.stringify(entry), channel));
    return verdict === 'decided' || verdict === 'changed' ? verdict : 'not-pending';
  }

  async remember(key: string, decision: RememberedDecision): Promise<void> {
    await this.run('remember a decision', async (r) => {
      const batch = r.multi().hset(this.keys.remembered, key, JSON.stringify(decision));
      if (decision.sessionId !== undefined) batch.sadd(this.sessionKey(decision.sessionId), key);
      await batch.exec();
    });
  }

  async recall(keys: readonly string[]): Promise<readonly (RememberedDecision | undefined)[]> {
    if (keys.length === 0) return [];
    const texts = await this.run('recall decisions', (r) => r.hmget(this.keys.remembered, ...keys));
    return texts.map((text) => parseRemembered(text));
  }

  async forgetSession(sessionId: string): Promise<void> {
    await this.run('forget a session', (r) => r.eval(FORGET, 2, this.keys.remembered, this.sessionKey(sessionId)));
  }

  async audit(options: { readonly limit?: number | undefined } = {}): Promise<readonly ApprovalAuditRecord[]> {
    const limit = Math.max(1, Math.min(options.limit ?? 100, 10_000));
    const texts = await this.run('read the audit trail', (r) => r.lrange(this.keys.audit, 0, limit - 1));
    return texts.map((text) => parseAudit(text)).filter((record): record is ApprovalAuditRecord => record !== undefined);
  }

  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    if (this.subscriber === undefined && !this.closed) {
      const subscriber = (this.subscriber = this.client());
      subscriber.on('message', () => this.notify());
      // subscribed again after a reconnect: whatever changed meanwhile is loaded
      subscriber.on('ready', () => this.notify());
      subscriber.subscribe(this.keys.channel).catch(() => undefined);
    }
    return () => void this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // a listener's failure is its own
      }
    }
  }

  private sessionKey(sessionId: string): string {
    return `{${this.prefix}}:session:${sessionId}`;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    await Promise.all([this.redis, this.subscriber].filter((c): c is Redis => c !== undefined).map(ended));
  }
}

/** Ends `client` now (no reconnect) and resolves when its connection is gone. */
function ended(client: Redis): Promise<void> {
  if (client.status === 'end') return Promise.resolve();
  if (client.status !== 'ready' && client.status !== 'connect') {
    client.disconnect();
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1_000).unref();
    client.once('end', () => {
      clearTimeout(timer);
      resolve();
    });
    client.disconnect();
  });
}
