import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { ToolkitError, describeThrown } from '../errors/toolkit-error';
import type { ToolResult } from '../model/tool-types';
import {
  changeText,
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

/**
 * Options of {@link postgresApprovalStore}.
 *
 * @example
 * postgresApprovalStore({ pool, schema: 'payments', table: 'approvals' });
 */
export interface PostgresApprovalStoreOptions {
  /** A `pg` `Pool` (yours: `close()` leaves it open). Its `connectionTimeoutMillis` bounds how long an unreachable database is waited for. */
  readonly pool: Pool;
  /** The schema of the tables (default `'public'`; created when absent). */
  readonly schema?: string | undefined;
  /** The table of held and decided calls (default `'toolwright_approvals'`); remembered decisions go to `<table>_remembered`. */
  readonly table?: string | undefined;
  /** How long decided calls (tombstones, audit records, results) are kept (default 30 days). */
  readonly retention?: ApprovalRetention | undefined;
}

/** An {@link ApprovalStore} in PostgreSQL; `close()` stops listening for changes. */
export interface PostgresApprovalStore extends ApprovalStore {
  /** The SQL that creates the tables (run at the first operation, or by your migrations). */
  readonly schemaSql: string;
  /** Deletes the decided calls older than the retention now; resolves to how many. */
  purge(): Promise<number>;
  /** Stops listening for changes and releases the connection that listened (the pool stays open). */
  close(): Promise<void>;
}

/** What went wrong, bounded: its message, or for a connection failure without one its code and address. */
function describeFailure(error: unknown): string {
  const { code, syscall, address, port, message } = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  if (typeof message === 'string' && message !== '') return message.slice(0, 200);
  if (typeof code !== 'string') return describeThrown(error).slice(0, 200);
  return [syscall, code, address !== undefined ? `${String(address)}${port !== undefined ? `:${String(port)}` : ''}` : undefined].filter((p) => p !== undefined).join(' ').slice(0, 200);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/;

/**
 * A shared {@link ApprovalStore} in PostgreSQL, for `new ApprovalManager({ store })`. One row per
 * held call: `state` is `'pending'` until a decision sets it to `'approved'` or `'rejected'` (the
 * row stays for `retention.decidedMs`, default 30 days: it is the call's tombstone, its audit record and,
 * once the approved call ran, its result); deciding is one conditional
 * `UPDATE` (atomic: one decision per call fleet-wide). Changes are announced with `NOTIFY`, so
 * that each manager sharing the store refreshes its pending list (one pool connection listens
 * while a manager watches). The tables are created at the first operation when absent
 * (`schemaSql` is the SQL, for migrations). A database that does not answer makes each operation
 * fail (`APPROVAL_STORE_FAILED`, with the cause): a call is then not held, and a decision not
 * taken; nothing runs.
 *
 * @throws ToolkitError `INVALID_OPTIONS` when `pool` is not a `pg` Pool, or `schema` / `table` is
 *   not a plain SQL identifier (letters, digits, `_`; at most 48 characters).
 *
 * @example
 * import { Pool } from 'pg';
 * const store = postgresApprovalStore({ pool: new Pool({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 5_000 }) });
 * const approvals = new ApprovalManager({ tools: ['send_payment'], store, contexts: { user: UserContext } });
 */
export function postgresApprovalStore(options: PostgresApprovalStoreOptions): PostgresApprovalStore {
  const pool = options.pool;
  if (pool === null || typeof pool !== 'object' || typeof pool.query !== 'function' || typeof pool.connect !== 'function') {
    throw new ToolkitError('INVALID_OPTIONS', "postgresApprovalStore: pool must be a pg Pool (new Pool({ … }) from 'pg').");
  }
  const schema = options.schema ?? 'public';
  const table = options.table ?? 'toolwright_approvals';
  for (const [name, value] of [['schema', schema], ['table', table]] as const) {
    if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
      throw new ToolkitError('INVALID_OPTIONS', `postgresApprovalStore: ${name} must be a plain SQL identifier (letters, digits and _, at most 48 characters), got '${String(value).slice(0, 60)}'.`);
    }
  }
  return new PostgresApprovals(pool, schema, table, decidedRetentionMs(options.retention, 'postgresApprovalStore'));
}

class PostgresApprovals implements PostgresApprovalStore {
  readonly schemaSql: string;
  private readonly calls: string;
  private readonly remembered: string;
  private readonly channel: string;
  private created: Promise<void> | undefined = undefined;
  private readonly listeners = new Set<(change?: ApprovalStoreChange) => void>();
  private purgedAt = 0;
  private connecting = false;
  private listening: PoolClient | undefined = undefined;
  private retry: ReturnType<typeof setTimeout> | undefined = undefined;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    schema: string,
    table: string,
    private readonly retentionMs: number,
  ) {
    this.calls = `"${schema}"."${table}"`;
    this.remembered = `"${schema}"."${table}_remembered"`;
    this.channel = `tw_${createHash('sha256').update(`${schema}.${table}`).digest('hex').slice(0, 24)}`;
    this.schemaSql = [
      ...(schema !== 'public' ? [`CREATE SCHEMA IF NOT EXISTS "${schema}";`] : []),
      `CREATE TABLE IF NOT EXISTS ${this.calls} (`,
      '  id text PRIMARY KEY,',
      "  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'rejected')),",
      '  created_at bigint NOT NULL,',
      '  record text NOT NULL,        -- the held call as JSON: { approval, context }',
      '  digest text NOT NULL,        -- sha256 of the record when it was held',
      '  decided_at bigint,',
      '  audit text,                  -- the decision as JSON: who, when, what was shown',
      "  result text                  -- an approved call's result as JSON, once its run ended",
      ');',
      `ALTER TABLE ${this.calls} ADD COLUMN IF NOT EXISTS result text;`,
      `CREATE INDEX IF NOT EXISTS "${table}_pending" ON ${this.calls} (created_at) WHERE state = 'pending';`,
      `CREATE INDEX IF NOT EXISTS "${table}_decided" ON ${this.calls} (decided_at) WHERE state <> 'pending';`,
      `CREATE TABLE IF NOT EXISTS ${this.remembered} (key text PRIMARY KEY, session_id text, decision text NOT NULL);`,
      `CREATE INDEX IF NOT EXISTS "${table}_remembered_session" ON ${this.remembered} (session_id);`,
    ].join('\n');
  }

  /** Creates the tables once (under an advisory lock: replicas starting together do not race). */
  private ensure(): Promise<void> {
    return (this.created ??= (async () => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [this.calls]);
        await client.query(this.schemaSql);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    })().catch((error: unknown) => {
      this.created = undefined;
      throw error;
    }));
  }

  private async query<R extends Record<string, unknown>>(what: string, sql: string, values: readonly unknown[]): Promise<{ rows: R[]; rowCount: number }> {
    if (this.closed) throw new ToolkitError('APPROVAL_STORE_FAILED', `The PostgreSQL approval store (${this.calls}) is closed.`);
    try {
      await this.ensure();
      const result = await this.pool.query<R>(sql, values as unknown[]);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    } catch (error) {
      throw new ToolkitError('APPROVAL_STORE_FAILED', `PostgreSQL failed to ${what} (${this.calls}): ${describeFailure(error)}`, { cause: error });
    }
  }

  async hold(record: StoredApproval): Promise<boolean> {
    const text = storedText(record);
    if (text.length > MAX_STORED_CHARS) throw new ToolkitError('APPROVAL_STORE_FAILED', `A held call of ${text.length} characters is over the ${MAX_STORED_CHARS} a store keeps.`);
    const { id, createdAt } = record.approval;
    const sql = `WITH held AS (INSERT INTO ${this.calls} (id, created_at, record, digest) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING id)
      SELECT pg_notify($5, $6) FROM held`;
    return (await this.query('hold a call', sql, [id, createdAt, text, record.digest, this.channel, changeText('held', id)])).rowCount === 1;
  }

  async list(): Promise<readonly StoredApproval[]> {
    const { rows } = await this.query<{ record: string; digest: string }>('list the pending calls', `SELECT record, digest FROM ${this.calls} WHERE state = 'pending' ORDER BY created_at, id LIMIT 10000`, []);
    return rows.map((row) => parseStored(row.record, row.digest)).filter((record): record is StoredApproval => record !== undefined);
  }

  async get(id: string): Promise<StoredApproval | undefined> {
    const { rows } = await this.query<{ record: string; digest: string }>('read a pending call', `SELECT record, digest FROM ${this.calls} WHERE id = $1 AND state = 'pending'`, [id]);
    const row = rows[0];
    return row === undefined ? undefined : (parseStored(row.record, row.digest) ?? { approval: {} as StoredApproval['approval'], digest: '' });
  }

  async decisionOf(id: string): Promise<'approved' | 'rejected' | undefined> {
    const { rows } = await this.query<{ state: string }>('read a decision', `SELECT state FROM ${this.calls} WHERE id = $1 AND state <> 'pending'`, [id]);
    const state = rows[0]?.state;
    return state === 'approved' || state === 'rejected' ? state : undefined;
  }

  async decide(entry: ApprovalAuditRecord): Promise<ApprovalStoreVerdict> {
    const sql = `WITH decided AS (UPDATE ${this.calls} SET state = $2, decided_at = $3, audit = $4 WHERE id = $1 AND state = 'pending' AND digest = $5 RETURNING id)
      SELECT pg_notify($6, $7) FROM decided`;
    const { rowCount } = await this.query('decide a call', sql, [entry.id, entry.decision, entry.decidedAt, JSON.stringify(entry), entry.digest, this.channel, changeText('decided', entry.id)]);
    if (rowCount === 1) {
      this.purgeLater();
      return 'decided';
    }
    const { rows } = await this.query<{ state: string }>('read a call', `SELECT state FROM ${this.calls} WHERE id = $1`, [entry.id]);
    return rows[0]?.state === 'pending' ? 'changed' : 'not-pending';
  }

  async settle(record: StoredApproval, entry: ApprovalAuditRecord): Promise<boolean> {
    const sql = `WITH settled AS (INSERT INTO ${this.calls} (id, state, created_at, record, digest, decided_at, audit) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING RETURNING id)
      SELECT pg_notify($8, $9) FROM settled`;
    const values = [entry.id, entry.decision, record.approval.createdAt, storedText(record), record.digest, entry.decidedAt, JSON.stringify(entry), this.channel, changeText('decided', entry.id)];
    return (await this.query('record a decision', sql, values)).rowCount === 1;
  }

  async finish(id: string, result: ToolResult): Promise<void> {
    const text = resultText(result);
    if (text === undefined) return;
    // committed without waiting for the disk: a result lost in a crash only leaves other replicas' decisions$ without it
    const sql = `WITH lazy AS (SELECT set_config('synchronous_commit', 'off', true)),
      finished AS (UPDATE ${this.calls} SET result = $2 WHERE id = $1 AND state = 'approved' AND result IS NULL RETURNING id)
      SELECT pg_notify($3, $4) FROM finished, lazy`;
    await this.query('keep a result', sql, [id, text, this.channel, changeText('finished', id)]);
  }

  async outcome(id: string): Promise<ApprovalOutcome | undefined> {
    const { rows } = await this.query<{ audit: string; result: string | null }>('read an outcome', `SELECT audit, result FROM ${this.calls} WHERE id = $1 AND state <> 'pending'`, [id]);
    const audit = rows[0] === undefined ? undefined : parseAudit(rows[0].audit);
    if (audit === undefined || audit.id !== id) return undefined;
    const result = parseResult(rows[0]!.result);
    return result === undefined ? { audit } : { audit, result };
  }

  async purge(): Promise<number> {
    this.purgedAt = Date.now();
    return (await this.query('purge decided calls', `DELETE FROM ${this.calls} WHERE state <> 'pending' AND decided_at < $1`, [this.purgedAt - this.retentionMs])).rowCount;
  }

  /** Purges in the background, at most once a minute: a decision never waits for it. */
  private purgeLater(): void {
    if (Date.now() - this.purgedAt < PURGE_INTERVAL_MS) return;
    this.purge().catch(() => undefined);
  }

  async remember(key: string, decision: RememberedDecision): Promise<void> {
    const sql = `INSERT INTO ${this.remembered} (key, session_id, decision) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET session_id = EXCLUDED.session_id, decision = EXCLUDED.decision`;
    await this.query('remember a decision', sql, [key, decision.sessionId ?? null, JSON.stringify(decision)]);
  }

  async recall(keys: readonly string[]): Promise<readonly (RememberedDecision | undefined)[]> {
    if (keys.length === 0) return [];
    const { rows } = await this.query<{ key: string; decision: string }>('recall decisions', `SELECT key, decision FROM ${this.remembered} WHERE key = ANY($1)`, [[...keys]]);
    const byKey = new Map(rows.map((row) => [row.key, row.decision]));
    return keys.map((key) => parseRemembered(byKey.get(key)));
  }

  async forgetSession(sessionId: string): Promise<void> {
    await this.query('forget a session', `DELETE FROM ${this.remembered} WHERE session_id = $1`, [sessionId]);
  }

  async audit(options: { readonly limit?: number | undefined } = {}): Promise<readonly ApprovalAuditRecord[]> {
    const limit = Math.max(1, Math.min(options.limit ?? 100, 10_000));
    const { rows } = await this.query<{ audit: string }>('read the audit trail', `SELECT audit FROM ${this.calls} WHERE state <> 'pending' ORDER BY decided_at DESC, id LIMIT $1`, [limit]);
    return rows.map((row) => parseAudit(row.audit)).filter((record): record is ApprovalAuditRecord => record !== undefined);
  }

  watch(listener: (change?: ApprovalStoreChange) => void): () => void {
    this.listeners.add(listener);
    if (this.listening === undefined && this.retry === undefined && !this.connecting) void this.listen();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.unlisten();
    };
  }

  /** Holds one pool connection that LISTENs; when it fails, tries again every second while someone watches. */
  private async listen(): Promise<void> {
    if (this.closed || this.listeners.size === 0) return;
    // one listening connection, however many watch at once (two would announce each change twice)
    this.connecting = true;
    let client: PoolClient | undefined;
    try {
      await this.ensure();
      client = await this.pool.connect();
      client.on('notification', (message) => {
        if (message.channel === this.channel) this.notify(parseChange(message.payload));
      });
      const lost = client;
      client.on('error', () => {
        if (this.listening !== lost) return;
        this.listening = undefined;
        lost.release(true);
        this.again();
      });
      await client.query(`LISTEN "${this.channel}"`);
      if (this.closed || this.listeners.size === 0) {
        client.release(true);
        return;
      }
      this.listening = client;
      // listening again after an outage: whatever changed meanwhile is loaded
      this.notify();
    } catch {
      client?.release(true);
      this.again();
    } finally {
      this.connecting = false;
    }
  }

  private again(): void {
    if (this.closed || this.listeners.size === 0 || this.retry !== undefined) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.listen();
    }, 1_000);
    this.retry.unref();
  }

  private unlisten(): void {
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.listening;
    this.listening = undefined;
    // the connection goes back closed: no LISTEN outlives the store on a pooled connection
    client?.release(true);
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

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.unlisten();
  }
}
