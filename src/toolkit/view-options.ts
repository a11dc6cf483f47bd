// The plain shapes a view takes and gives, apart from the ToolView class that the prompt renderer
// and the runtime do not need.

import type { ToolExecutionContext } from '../model/execution-context';

/**
 * A group and whether it is on in this view.
 *
 * @example
 * session.getToolGroups(); // [{ name: 'admin', description: 'Admin tools', active: false }]
 */
export interface ToolGroupState {
  name: string;
  description: string;
  active: boolean;
}

/**
 * Options of `view.renderPrompt()`.
 *
 * @example
 * const system = `You are a support agent.\n\n${session.renderPrompt({ groups: false, maxDescriptionChars: 120 })}`;
 */
export interface RenderPromptOptions {
  /** List the enabled tools (default `true`). */
  tools?: boolean | undefined;
  /** List the tool groups with their on/off state in this view (default `true`). */
  groups?: boolean | undefined;
  /** List the registered skills (default `true`). */
  skills?: boolean | undefined;
  /** Cut every description to this many characters (default: no limit). */
  maxDescriptionChars?: number | undefined;
  /** The caller's context: only the tools its `Principal` may use are listed (see `ToolListOptions`). */
  context?: ToolExecutionContext | undefined;
}

/**
 * Whose list a view's list method makes: a list shows only the tools this caller may use
 * (`@Tool({ scopes })`, the toolkit's `authorize` rule). Without `context`, the caller is the one
 * the toolkit's own `context` describes (no principal unless it has one).
 *
 * @example
 * const mine = session.getActiveTools({ context: ToolExecutionContext.of(new Principal('ann', { scopes: ['reports:read'] })) });
 */
export interface ToolListOptions {
  /** The caller's context (its `Principal`), over the toolkit's context. */
  readonly context?: ToolExecutionContext | undefined;
}
