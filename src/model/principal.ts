import { ToolkitError } from '../errors';

/** What `new Principal(id, options)` takes besides the id. */
export interface PrincipalOptions {
  /** The scopes granted (default none). */
  readonly scopes?: readonly string[] | undefined;
  /** Further facts about the caller (roles, tenant…), for an `authorize` rule and the tools. */
  readonly claims?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Who is calling: an identity, the scopes it holds and free-form claims. Put it in the context
 * the app passes with its calls (`ToolExecutionContext.of(principal)`, or a subclass of it, which
 * is found under `Principal` too); the MCP server sets it from its authentication. Tools declared
 * with `@Tool({ scopes })` are hidden from and refused to a caller without every scope, and the
 * toolkit's `authorize` rule sees it. A tool parameter typed `Principal` receives it.
 *
 * @example
 * const context = ToolExecutionContext.of(new Principal('ann', { scopes: ['reports:read'], claims: { tenant: 't1' } }));
 * await toolkit.callTool(call, { context });
 */
export class Principal {
  /** A stable identity (a user or client id). Never a token. */
  readonly id: string;
  /** The scopes granted (frozen). */
  readonly scopes: readonly string[];
  /** Further facts about the caller (frozen). */
  readonly claims: Readonly<Record<string, unknown>>;

  /** @throws ToolkitError `INVALID_CONTEXT` when `id` is not a non-empty string or a scope is not one. */
  constructor(id: string, options: PrincipalOptions = {}) {
    if (typeof id !== 'string' || id === '') throw new ToolkitError('INVALID_CONTEXT', 'A Principal needs a non-empty string id.');
    const scopes = [...(options.scopes ?? [])];
    if (scopes.some((scope) => typeof scope !== 'string' || scope === '')) {
      throw new ToolkitError('INVALID_CONTEXT', `Principal '${id.slice(0, 80)}': every scope must be a non-empty string.`);
    }
    this.id = id;
    this.scopes = Object.freeze(scopes);
    this.claims = Object.freeze({ ...(options.claims ?? {}) });
  }

  /** True when the principal holds `scope`. */
  hasScope(scope: string): boolean {
    return this.scopes.includes(scope);
  }
}
