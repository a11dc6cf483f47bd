/**
 * `toolwright/redis`: state that processes share through Redis (needs `ioredis`).
 *
 * @example
 * const store = redisApprovalStore({ connection: { host: '127.0.0.1', port: 6379 } });
 * const approvals = new ApprovalManager({ tools: ['send_payment'], store });
 *
 * @packageDocumentation
 */
import './require-ioredis';

export { redisApprovalStore, type RedisApprovalStore, type RedisApprovalStoreOptions, type RedisConnection } from './redis-approval-store';
