import { Pool, type PoolConfig } from 'pg';

/** The machine's PostgreSQL (trust auth): the approval store tests use it for real, each in its own schema. */
export const POSTGRES: PoolConfig = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };

/**
 * Resolves when PostgreSQL answers; rejects with a message that says what is missing otherwise
 * (the tests that need it fail clearly instead of hanging).
 */
export async function requirePostgres(): Promise<void> {
  const pool = new Pool({ ...POSTGRES, connectionTimeoutMillis: 2_000, max: 1 });
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${String(POSTGRES.host)}:${String(POSTGRES.port)} as user '${String(POSTGRES.user)}', database '${String(POSTGRES.database)}' ` +
        `(${String((error as Error).message)}): the approval store tests need it running with trust authentication.`,
    );
  } finally {
    await pool.end();
  }
}

/** A schema name no other test (or run) uses. */
export function uniqueSchema(label: string): string {
  return `tw_${label}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`.toLowerCase();
}

/** Drops `schema` and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const pool = new Pool({ ...POSTGRES, max: 1 });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await pool.end();
  }
}
