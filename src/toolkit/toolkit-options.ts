import type { ToolkitContainer } from '../di/services';
import type { ClientRequestHandler } from '../model/client-requests';
import type { ToolwrightLogger } from '../model/logger';
import type { ToolExecutionContext } from '../model/execution-context';
import type { ToolManifest } from '../model/manifest';
import type { ExecutionOptions } from '../model/tool-types';
import type { RepairMode } from '../model/repair-types';
import type { Authorize } from '../executor/authorization';
import type { EquipToolGroupsOptions } from './equip-tool';
import type { SkillOptions } from './skills/skill-definition';

/** Options of `new Toolkit(...)`; all optional. */
export interface ToolkitOptions {
  /** The Inversify container services are resolved from (default: a new one). */
  container?: ToolkitContainer | undefined;
  /** Toolkit-level context objects (lowest priority of the chain). */
  context?: ToolExecutionContext | undefined;
  /** The parsed build-time manifest (`toolwright-schema`). */
  manifest?: ToolManifest | undefined;
  /** Run batches in parallel (default `true`). */
  parallel?: boolean | undefined;
  /** Most calls of a batch running at once (default 5). */
  maxConcurrency?: number | undefined;
  /** Default timeout and retry policy of every tool. */
  execution?: ExecutionOptions | undefined;
  /** Default `maxResultChars` of every tool. */
  maxResultChars?: number | undefined;
  /**
   * Sessions unused longer than this are closed (default: never). Use means a
   * `toolkit.session(id)` lookup, a call, a group toggle or a skill change through the session.
   */
  sessionTtlMs?: number | undefined;
  /** Limits of executable skills: composition depth (default 3), tool calls per run (25), timeout (60 s). */
  skills?: SkillOptions | undefined;
  /**
   * Offer the `equip_tool_groups` meta tool, which lets the model switch tool groups on and off
   * in its own view (`true`: every group; or `{ groups }` to limit it). Off by default; see
   * `Toolkit.enableEquipToolGroups`.
   */
  equipToolGroups?: boolean | EquipToolGroupsOptions | undefined;
  /**
   * Answers the tools' requests to "the client" (`ClientRequests`: sampling, elicitation) in calls
   * that bring no client of their own — every call but MCP's, whose requests go to the MCP client.
   * Default: none (such requests fail with `CLIENT_UNAVAILABLE`).
   */
  clientRequests?: ClientRequestHandler | undefined;
  /**
   * Per-tool authorization on the caller, on every path (direct calls, batches, skills, meta
   * tools, approvals resumed, MCP, adapters, queued tools): `false` hides the tool from the
   * caller's lists and refuses its calls with `FORBIDDEN` before any hook or preset runs;
   * `'approval'` holds each call for the `ApprovalManager` (`FORBIDDEN` without one). Applied on
   * top of `@Tool({ scopes })`. See the README's "Authorization" section.
   */
  authorize?: Authorize | undefined;
  /**
   * Default argument repair of every tool (`@Tool({ repair })` wins): `'safe'` repairs malformed
   * JSON and mistyped values only where that cannot change what the model meant, emitting
   * `call_repaired`; `'off'` (the default) refuses them. See the README's "Argument repair".
   */
  repair?: RepairMode | undefined;
  /**
   * Where the toolkit logs what it does (default: nowhere, at no cost): registrations, each call's
   * start and end (`debug`), failed and timed-out calls and throwing callbacks (`warn`), and what
   * tools log with `ToolEmitter.log` (at their level). Lines carry tool names, call ids, error
   * codes and durations, never arguments, results or preset values. pino, console or anything
   * with `debug`/`info`/`warn`/`error` (see {@link ToolwrightLogger}).
   *
   * @example
   * new Toolkit({ logger: pino() });
   */
  logger?: ToolwrightLogger | undefined;
}
