import type { Observable } from 'rxjs';
import { distinctUntilChanged, filter, map, skip } from 'rxjs';
import { GuardedObservable } from '../utils/guarded-observable';
import { quoteInput, quoteInputs } from '../utils/quote-input';
import type { UriTemplateValues } from '../utils/uri-template';
import { ToolkitError } from '../errors';
import { argumentValues } from './argument-values';
import type { Catalog } from './catalog';
import { completeArgument } from './catalog-complete';
import { toPromptResult, toResourceContents } from './catalog-contents';
import type { CatalogEntry } from './catalog-entry';
import type {
  CatalogCallOptions,
  CompleteOptions,
  CompletionResult,
  PromptGetResult,
  PromptInfo,
  ResourceInfo,
  ResourceReadResult,
  ResourceTemplateInfo,
} from './catalog-types';
import { runMember, type MemberRunParts } from './member-run';

/** The longest URI a read matches against the templates. */
export const MAX_RESOURCE_URI_CHARS = 16_384;

/** @internal What a view lets its catalog views reach: the groups it permits, and whether it is open. */
export interface CatalogAccess {
  readonly sessionId: string | undefined;
  /** True when the view permits members of `group` (no group: always). */
  permits(group: string | undefined): boolean;
  /** Why the view takes no requests any more (a closed session), or `undefined`. */
  closedReason(): string | undefined;
  /** Ticks on every change of the view (groups, skill, registrations): the current state at once. */
  readonly changes$: Observable<unknown>;
}

function sameEntries(a: readonly CatalogEntry[], b: readonly CatalogEntry[]): boolean {
  return a.length === b.length && a.every((entry, i) => entry === b[i]);
}

/**
 * What {@link ResourceView} and {@link PromptView} share: they reach what their toolkit view's
 * groups permit, and say when that changes.
 */
export abstract class CatalogView {
  /** @internal */
  constructor(
    /** @internal */ protected readonly parts: MemberRunParts,
    /** @internal */ protected readonly catalog: Catalog,
    /** @internal */ protected readonly access: CatalogAccess,
  ) {}

  /** @internal The entries of the catalog this view lists, in registration order. */
  protected abstract listed(): CatalogEntry[];

  /**
   * Emits each time what this view lists changes (a group switched, a registration), never at
   * subscription. MCP turns it into `list_changed` notifications.
   *
   * @example
   * session.resources.listChanged$.subscribe(() => ui.refreshResources());
   */
  get listChanged$(): Observable<void> {
    const changes = this.access.changes$.pipe(
      map(() => this.listed()),
      distinctUntilChanged(sameEntries),
      skip(1),
      map(() => undefined),
    );
    return GuardedObservable.of(changes, this.parts.report, 'listChanged$');
  }

  /** @internal */
  protected permitted(entry: CatalogEntry | undefined): CatalogEntry | undefined {
    return entry !== undefined && this.access.permits(entry.group) ? entry : undefined;
  }

  /** @internal @throws ToolkitError `SESSION_CLOSED` on a closed or expired session. */
  protected assertOpen(): void {
    const reason = this.access.closedReason();
    if (reason !== undefined) throw new ToolkitError('SESSION_CLOSED', reason);
  }
}

/**
 * The resources of one view (`toolkit.resources`, `session.resources`): only those of the groups
 * the view has on are listed, readable, completable — a resource of a group that is off is "not
 * found", whoever asks. Reads run the resource's method with its presets, context objects and
 * `AbortSignal`, under its timeout, and give MCP content.
 *
 * @example
 * const { contents } = await session.resources.read('docs://pages/intro', { context });
 * messages.push({ role: 'system', content: contents.map((c) => ('text' in c ? c.text : '')).join('\n') });
 */
export class ResourceView extends CatalogView {
  /** The fixed resources this view lists (frozen). */
  list(): readonly ResourceInfo[] {
    return Object.freeze(this.listed().filter((e) => e.kind === 'resource').map((e) => e.info as ResourceInfo));
  }

  /** The resource templates this view lists (frozen). */
  templates(): readonly ResourceTemplateInfo[] {
    return Object.freeze(this.listed().filter((e) => e.kind === 'template').map((e) => e.info as ResourceTemplateInfo));
  }

  /**
   * Reads the resource at `uri`: the fixed resource with that URI, else the first template (in
   * registration order) that matches it, its variables converted and validated.
   *
   * @throws ToolkitError (the Promise rejects) `UNKNOWN_RESOURCE` (no such resource in this view),
   *   `INVALID_ARGUMENTS`, `CONTEXT_MISSING`, `EXECUTION_FAILED`, `TIMEOUT`, `ABORTED`,
   *   `RESULT_WITHHELD`, `SESSION_CLOSED`.
   */
  async read(uri: string, options: CatalogCallOptions = {}): Promise<ResourceReadResult> {
    this.assertOpen();
    if (typeof uri !== 'string' || uri.length > MAX_RESOURCE_URI_CHARS) {
      throw new ToolkitError('INVALID_ARGUMENTS', `A resource URI is text of at most ${MAX_RESOURCE_URI_CHARS} characters.`);
    }
    const found = this.find(uri);
    if (found === undefined) throw new ToolkitError('UNKNOWN_RESOURCE', `Resource ${quoteInput(uri)} not found.`);
    const values = argumentValues(this.parts, found.entry, found.values, false);
    const output = await runMember(this.parts, found.entry, values, options, this.access.sessionId);
    return toResourceContents(found.entry, output.value, uri, output.scrub);
  }

  /** True when {@link read} would find a resource for `uri` in this view. */
  has(uri: string): boolean {
    return typeof uri === 'string' && uri.length <= MAX_RESOURCE_URI_CHARS && this.find(uri) !== undefined;
  }

  /**
   * Suggests values for variable `name` of a template (`ref`: the template's text, or a fixed URI)
   * from what was typed. Never rejects for a failing callback (see `CompleteCallback`).
   *
   * @throws ToolkitError (the Promise rejects) `UNKNOWN_RESOURCE`, `SESSION_CLOSED`.
   */
  async complete(ref: string, name: string, value: string, options: CompleteOptions = {}): Promise<CompletionResult> {
    this.assertOpen();
    const entry = this.permitted(this.catalog.template(ref) ?? this.catalog.resource(ref));
    if (entry === undefined) throw new ToolkitError('UNKNOWN_RESOURCE', `Resource template ${quoteInput(ref)} not found.`);
    return completeArgument(this.parts, entry, name, value, options, this.access.sessionId);
  }

  /**
   * Says that the content at `uri` changed: MCP clients that subscribed to it (through this view:
   * from the toolkit, every session; from a session, that session only) get
   * `notifications/resources/updated`, and {@link updated$} emits.
   *
   * @example
   * orders.on('change', (id) => toolkit.resources.notifyUpdated(`orders://${id}`));
   */
  notifyUpdated(uri: string): void {
    const sessionId = this.access.sessionId;
    this.catalog.updates.next(sessionId === undefined ? { uri } : { uri, sessionId });
  }

  /** The URIs said to have changed ({@link notifyUpdated}) that concern this view: the toolkit's, and this session's. */
  get updated$(): Observable<string> {
    const sessionId = this.access.sessionId;
    const updates = this.catalog.updates.pipe(
      filter((u) => u.sessionId === undefined || u.sessionId === sessionId),
      map((u) => u.uri),
    );
    return GuardedObservable.of(updates, this.parts.report, 'updated$');
  }

  /** @internal */
  protected listed(): CatalogEntry[] {
    const catalog = this.catalog;
    const listed: CatalogEntry[] = [];
    for (const entry of catalog.resources()) if (this.access.permits(entry.group)) listed.push(entry);
    for (const entry of catalog.templates()) if (this.access.permits(entry.group)) listed.push(entry);
    return listed;
  }

  /** @internal */
  private find(uri: string): { entry: CatalogEntry; values: UriTemplateValues } | undefined {
    const fixed = this.permitted(this.catalog.resource(uri));
    if (fixed !== undefined) return { entry: fixed, values: {} };
    for (const entry of this.catalog.templates()) {
      if (!this.access.permits(entry.group)) continue;
      const values = entry.template!.match(uri);
      if (values !== undefined) return { entry, values };
    }
    return undefined;
  }
}

/**
 * The prompts of one view (`toolkit.prompts`, `session.prompts`): only those of the groups the
 * view has on are listed, gettable and completable.
 *
 * @example
 * const { messages } = await session.prompts.get('review', { pr: '42' });
 */
export class PromptView extends CatalogView {
  /** The prompts this view lists (frozen; preset arguments never appear). */
  list(): readonly PromptInfo[] {
    return Object.freeze(this.listed().map((e) => e.info as PromptInfo));
  }

  /**
   * Gets prompt `name` with `args` (text, as MCP sends them; converted to each argument's type and
   * validated first).
   *
   * @throws ToolkitError (the Promise rejects) `UNKNOWN_PROMPT`, `INVALID_ARGUMENTS` (naming each
   *   missing or invalid argument), `CONTEXT_MISSING`, `EXECUTION_FAILED`, `TIMEOUT`, `ABORTED`,
   *   `RESULT_WITHHELD`, `SESSION_CLOSED`.
   */
  async get(name: string, args: Readonly<Record<string, string>> = {}, options: CatalogCallOptions = {}): Promise<PromptGetResult> {
    this.assertOpen();
    const entry = this.entry(name);
    const values = argumentValues(this.parts, entry, args, true);
    const output = await runMember(this.parts, entry, values, options, this.access.sessionId);
    return toPromptResult(entry, output.value, output.scrub);
  }

  /**
   * Suggests values for argument `argument` of prompt `name` from what was typed. Never rejects
   * for a failing callback (see `CompleteCallback`).
   *
   * @throws ToolkitError (the Promise rejects) `UNKNOWN_PROMPT`, `SESSION_CLOSED`.
   */
  async complete(name: string, argument: string, value: string, options: CompleteOptions = {}): Promise<CompletionResult> {
    this.assertOpen();
    return completeArgument(this.parts, this.entry(name), argument, value, options, this.access.sessionId);
  }

  /** @internal */
  protected listed(): CatalogEntry[] {
    const listed: CatalogEntry[] = [];
    for (const entry of this.catalog.prompts()) if (this.access.permits(entry.group)) listed.push(entry);
    return listed;
  }

  /** @internal */
  private entry(name: string): CatalogEntry {
    const entry = this.permitted(typeof name === 'string' ? this.catalog.prompt(name) : undefined);
    if (entry !== undefined) return entry;
    const known = this.listed().map((e) => e.name);
    throw new ToolkitError('UNKNOWN_PROMPT', `Prompt ${quoteInput(String(name))} not found. Prompts: ${known.length ? quoteInputs(known) : '(none)'}.`);
  }
}

/**
 * @internal The resource and prompt views of one toolkit's catalog: a toolkit view gets its own
 * through the access it makes of its state.
 */
export class CatalogViews {
  constructor(
    /** What reading a resource or getting a prompt needs of the toolkit. */
    private readonly parts: MemberRunParts,
    private readonly catalog: Catalog,
  ) {}

  /** The resources `access` lets its view reach. */
  resources(access: CatalogAccess): ResourceView {
    return new ResourceView(this.parts, this.catalog, access);
  }

  /** The prompts `access` lets its view reach. */
  prompts(access: CatalogAccess): PromptView {
    return new PromptView(this.parts, this.catalog, access);
  }
}
