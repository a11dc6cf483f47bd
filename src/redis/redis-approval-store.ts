import { Redis } from 'ioredis';
import { ToolkitError, describeThrown } from '../errors/toolkit-error';
import type { ToolResult } from '../model/tool-types';
import {
  decidedRetentionMs,
  MAX_STORED_CHARS,
  parseAudit,
  parseChange,
  parseRemembered,
  parseResult,
  parseStored,
  PURGE_INTERVAL_MS,
  resultText,
  storedText,
  type ApprovalAuditRecord,
  type ApprovalOutcome,
  type ApprovalRetention,
  type ApprovalStore,
  type ApprovalStoreChange,
  type ApprovalStoreVerdict,
  type StoredApproval,
} from '../approval/approval-store';
import type { RememberedDecision } from '../approval/approval-types';
import { isRedisClient, redisAddressOf, type RedisConnection } from './redis-connection';
import { endClient } from '../utils/client-end';

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
  /** How long decided calls (tombstones, audit records, results) are kept (default 30 days). */
  readonly retention?: ApprovalRetention | undefined;
}

/** An {@link ApprovalStore} in Redis; `close()` ends its connections. */
export interface RedisApprovalStore extends ApprovalStore {
  /** Deletes the decided calls older than the retention now (up to 10,000 at a time); resolves to how many. */
  purge(): Promise<number>;
  /** Ends the store's own connections (a client you passed stays open). */
  close(): Promise<void>;
}

const HOLD = `
if redis.call('HEXISTS', KEYS[4], ARGV[1]) == 1 or redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PUBLISH', ARGV[5], 'held:' .. ARGV[1])
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
redis.call('HSET', KEYS[6], ARGV[1], ARGV[4])
redis.call('ZADD', KEYS[7], ARGV[6], ARGV[1])
redis.call('PUBLISH', ARGV[5], 'decided:' .. ARGV[1])
return 'decided'`;

// a call decided when it was asked, never held: its tombstone and audit record
const SETTLE = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 or redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('LPUSH', KEYS[3], ARGV[3])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[5], ARGV[4], ARGV[1])
redis.call('PUBLISH', ARGV[5], 'decided:' .. ARGV[1])
return 1`;

const FINISH = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 or redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('PUBLISH', ARGV[3], 'finished:' .. ARGV[1])
return 1`;

// decided calls older than ARGV[1]: tombstone, audit record (by id and at the list's old end), result
const PURGE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, 10000)
for i = 1, #ids do
  redis.call('HDEL', KEYS[2], ids[i])
  redis.call('HDEL', KEYS[3], ids[i])
  redis.call('HDEL', KEYS[4], ids[i])
  redis.call('ZREM', KEYS[1], ids[i])
end
while true do
  local last = redis.call('LINDEX', KEYS[5], -1)
  if not last then break end
  local ok, entry = pcall(cjson.decode, last)
  if ok and type(entry) == 'table' and type(entry.decidedAt) == 'number' and entry.decidedAt >= tonumber(ARGV[1]) then break end
  redis.call('RPOP', KEYS[5])
end
return #ids`;

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
 * pending list. Decided calls (tombstones, audit records, results) are kept for `retention.decidedMs`
 * (default 30 days), then purged. A Redis that does
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
  return new RedisApprovals(connection, prefix, options.commandTimeoutMs ?? 5_000, decidedRetentionMs(options.retention, 'redisApprovalStore'));
}

class RedisApprovals implements RedisApprovalStore {
  private readonly address: string;
  private readonly redis: Redis;
  private subscriber: Redis | undefined = undefined;
  private readonly listeners = new Set<(change?: ApprovalStoreChange) => void>();
  private readonly keys: Readonly<Record<'pending' | 'records' | 'digests' | 'decided' | 'decidedAt' | 'audit' | 'audits' | 'results' | 'remembered' | 'channel', string>>;
  private purgedAt = 0;
  private closed = false;

  constructor(
    private readonly connection: RedisConnection,
    private readonly prefix: string,
    private readonly commandTimeoutMs: number,
    private readonly retentionMs: number,
  ) {
    this.address = redisAddressOf(isRedisClient(connection) ? connection.options : connection);
    const k = (name: string): string => `{${prefix}}:${name}`;
    const names = ['pending', 'records', 'digests', 'decided', 'decidedAt', 'audit', 'audits', 'results', 'remembered'] as const;
    this.keys = { ...(Object.fromEntries(names.map((name) => [name, k(name)])) as Record<(typeof names)[number], string>), channel: k('changed') };
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
    const { pending, records, digests, decided, audit, audits, decidedAt, channel } = this.keys;
    const tombstone = JSON.stringify({ decision: entry.decision, decidedAt: entry.decidedAt });
    const verdict = await this.run('decide a call', (r) =>
      r.eval(DECIDE, 7, pending, records, digests, decided, audit, audits, decidedAt, entry.id, entry.digest, tombstone, JSON.stringify(entry), channel, String(entry.decidedAt)),
    );
    if (verdict === 'decided') this.purgeLater();
    return verdict === 'decided' || verdict === 'changed' ? verdict : 'not-pending';
  }

  async settle(_record: StoredApproval, entry: ApprovalAuditRecord): Promise<boolean> {
    const { decided, records, audit, audits, decidedAt, channel } = this.keys;
    const tombstone = JSON.stringify({ decision: entry.decision, decidedAt: entry.decidedAt });
    const written = await this.run('record a decision', (r) => r.eval(SETTLE, 5, decided, records, audit, audits, decidedAt, entry.id, tombstone, JSON.stringify(entry), String(entry.decidedAt), channel));
    return written === 1;
  }

  async finish(id: string, result: ToolResult): Promise<void> {
    const text = resultText(result);
    if (text === undefined) return;
    await this.run('keep a result', (r) => r.eval(FINISH, 2, this.keys.decided, this.keys.results, id, text, this.keys.channel));
  }

  async outcome(id: string): Promise<ApprovalOutcome | undefined> {
    return this.run('read an outcome', async (r) => {
      const [auditText, kept] = await this.both<string | null>(r.multi().hget(this.keys.audits, id).hget(this.keys.results, id));
      const audit = parseAudit(auditText);
      if (audit === undefined || audit.id !== id) return undefined;
      const result = parseResult(kept);
      return result === undefined ? { audit } : { audit, result };
    });
  }

  async purge(): Promise<number> {
    this.purgedAt = Date.now();
    const { decidedAt, decided, audits, results, audit } = this.keys;
    return Number(await this.run('purge decided calls', (r) => r.eval(PURGE, 5, decidedAt, decided, audits, results, audit, String(this.purgedAt - this.retentionMs))));
  }

  /** Purges in the background, at most once a minute: a decision never waits for it. */
  private purgeLater(): void {
    if (Date.now() - this.purgedAt < PURGE_INTERVAL_MS) return;
    this.purge().catch(() => undefined);
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

  watch(listener: (change?: ApprovalStoreChange) => void): () => void {
    this.listeners.add(listener);
    if (this.subscriber === undefined && !this.closed) {
      const subscriber = (this.subscriber = this.client());
      subscriber.on('message', (_channel: string, message: string) => this.notify(parseChange(message)));
      // subscribed again after a reconnect: whatever changed meanwhile is loaded
      subscriber.on('ready', () => this.notify());
      subscriber.subscribe(this.keys.channel).catch(() => undefined);
    }
    return () => void this.listeners.delete(listener);
  }

  private notify(change?: ApprovalStoreChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
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
    await Promise.all([this.redis, this.subscriber].filter((c): c is Redis => c !== undefined).map(endClient));
  }
}
