/**
 * `toolwright/postgres`: state that processes share through PostgreSQL (needs `pg`).
 *
 * @example
 * const store = postgresApprovalStore({ pool: new Pool({ connectionString }) });
 * const approvals = new ApprovalManager({ tools: ['send_payment'], store });
 *
 * @packageDocumentation
 */
import './require-pg';

export { postgresApprovalStore, type PostgresApprovalStore, type PostgresApprovalStoreOptions } from './postgres-approval-store';
