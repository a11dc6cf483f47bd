/**
 * Why {@link importMcpTools} did not import a remote tool:
 * - `invalid-name`: its name is empty or longer than 128 characters;
 * - `duplicate-name`: the listing named another tool so before it;
 * - `confusable-name`: its name differs from a tool already in the toolkit (or imported before
 *   it) only by case or Unicode compatibility forms (NFKC): the tool already there keeps the name;
 * - `too-large` / `too-deep`: its definition is over `maxSchemaBytes` or `maxSchemaNodes` / `maxSchemaDepth`;
 * - `over-budget`: the tools before it in the listing already hold `maxCatalogBytes` of definitions;
 * - `unsafe-schema`: a `pattern` that needs a backtracking engine, a `$ref` outside its schema, an `$id`;
 * - `task-required`: it can only be called as an MCP task (`execution.taskSupport: 'required'`);
 * - `invalid-definition`: the toolkit refused to register it (an invalid JSON Schema, a dialect
 *   toolwright does not validate…).
 *
 * @example
 * const tasks = imported.skipped.filter((s) => s.code === 'task-required');
 */
export type McpImportSkipCode =
  | 'invalid-name'
  | 'duplicate-name'
  | 'confusable-name'
  | 'too-large'
  | 'too-deep'
  | 'over-budget'
  | 'unsafe-schema'
  | 'task-required'
  | 'invalid-definition';

/**
 * A remote tool that could not be imported, and why.
 *
 * @example
 * for (const { name, reason } of imported.skipped) console.error(`skipped ${name}: ${reason}`);
 */
export interface McpImportSkipped {
  /** The remote tool's name (at most 128 characters of it). */
  readonly name: string;
  /** What kind of refusal it is. */
  readonly code: McpImportSkipCode;
  /** Why it was skipped, for a person (at most 300 characters). */
  readonly reason: string;
}

/**
 * One remote tool as imported: the name it got and what the import changed on the way.
 *
 * @example
 * // { remote: 'search-repos', local: 'gh_search-repos', changes: ["renamed to 'gh_search-repos' (prefix 'gh')"] }
 */
export interface McpImportedTool {
  /** The remote tool's name. */
  readonly remote: string;
  /** Its name in the toolkit. */
  readonly local: string;
  /**
   * What differs from the remote definition, each with its reason: a new name (prefix, characters
   * a provider rejects, a name too long or taken), a rewritten input schema, annotations kept as
   * untrusted hints, a description made up. Empty when the tool was taken as it is.
   */
  readonly changes: readonly string[];
}

/**
 * What one listing of the remote server gave: every tool imported (with what changed) and every
 * tool skipped (with why). Bounded as the listing is: at most `maxTools` entries in all, each
 * text bounded.
 *
 * @example
 * const { report } = await importMcpTools(client, toolkit, { prefix: 'gh' });
 * for (const t of report.imported) if (t.changes.length) log.info(`${t.remote} → ${t.local}: ${t.changes.join('; ')}`);
 * for (const s of report.skipped) log.warn(`${s.name} not imported (${s.code}): ${s.reason}`);
 */
export interface McpImportReport {
  /** The remote server's name for itself (at most 80 characters of it). */
  readonly server: string;
  /**
   * The protocol revision the client negotiated with the server (`'2025-11-25'`, `'2026-07-28'`):
   * always known for an SDK 2 client; for an SDK 1.x client when its transport tells (Streamable HTTP).
   */
  readonly protocolVersion?: string | undefined;
  /** The tools registered in the toolkit, in listing order. */
  readonly imported: readonly McpImportedTool[];
  /** The tools not registered, in listing order. */
  readonly skipped: readonly McpImportSkipped[];
}
