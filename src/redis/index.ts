/**
 * `toolwright/redis`: the Redis-backed parts a fleet of processes shares (needs the optional peer
 * dependency `ioredis`): approval stores, and the state and event bus of MCP 2026-07-28 servers.
 *
 * @example
 * import { redisApprovalStore, redisMcpEventBus, redisMcpStateStore } from 'toolwright/redis';
 * const connection = { host: '127.0.0.1', port: 6379 };
 * await serveMcpHttp(toolkit, { name: 'app', version: '1.0.0', stateSecret, stateStore: redisMcpStateStore({ connection }), bus: redisMcpEventBus({ connection }) });
 *
 * const approvals = new ApprovalManager({ tools: ['send_payment'], store: redisApprovalStore({ connection }) });
 *
 * @packageDocumentation
 */
import './require-redis';

export type { McpStateStore } from '../mcp/server/modern/state-store';
export type { RedisConnection } from './redis-connection';
export { redisMcpStateStore, type RedisMcpStateStore, type RedisMcpStateStoreOptions } from './redis-mcp-state-store';
export { redisMcpEventBus, type McpServerEvent, type RedisMcpEventBus, type RedisMcpEventBusOptions } from './redis-mcp-event-bus';
export { redisApprovalStore, type RedisApprovalStore, type RedisApprovalStoreOptions } from './redis-approval-store';
