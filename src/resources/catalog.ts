import { Subject } from 'rxjs';
import { ToolkitError } from '../errors';
import type { CatalogBatch } from './catalog-batch';
import type { CatalogEntry } from './catalog-entry';

/** @internal A resource changed: for every view (no `sessionId`), or for one session's. */
export interface ResourceUpdate {
  readonly uri: string;
  readonly sessionId?: string;
}

/**
 * @internal The resources, resource templates and prompts of one toolkit, in registration order,
 * by the keys clients use: a fixed resource by its URI, a template by its text, a prompt by its
 * name (resource names are unique too). Which of them a view may reach is its gate's business
 * (`ResourceView`, `PromptView`); the catalog only holds them.
 */
export class Catalog {
  /** Bumped on every change, so that views know their listings changed. */
  version = 0;
  /** `notifyUpdated` calls, for whoever serves subscriptions (MCP). */
  readonly updates = new Subject<ResourceUpdate>();
  private readonly fixed = new Map<string, CatalogEntry>();
  private readonly templateList: CatalogEntry[] = [];
  private readonly resourceNames = new Map<string, CatalogEntry>();
  private readonly promptNames = new Map<string, CatalogEntry>();

  /** The fixed resources, in registration order. */
  resources(): IterableIterator<CatalogEntry> {
    return this.fixed.values();
  }

  /** The resource templates, in registration order. */
  templates(): readonly CatalogEntry[] {
    return this.templateList;
  }

  /** The prompts, in registration order. */
  prompts(): IterableIterator<CatalogEntry> {
    return this.promptNames.values();
  }

  /** The fixed resource at `uri`. */
  resource(uri: string): CatalogEntry | undefined {
    return this.fixed.get(uri);
  }

  /** The template written `template`. */
  template(template: string): CatalogEntry | undefined {
    return this.templateList.find((entry) => entry.template!.template === template);
  }

  /** The prompt named `name`. */
  prompt(name: string): CatalogEntry | undefined {
    return this.promptNames.get(name);
  }

  /**
   * Throws unless `batch` can join the catalog: no URI, template or name taken, here or inside the batch.
   *
   * @throws ToolkitError `DUPLICATE_RESOURCE` / `DUPLICATE_PROMPT` naming both owners.
   */
  check(batch: CatalogBatch): void {
    const uris = new Map<string, CatalogEntry>();
    const names = new Map<string, CatalogEntry>();
    const prompts = new Map<string, CatalogEntry>();
    const taken = (entry: CatalogEntry, previous: CatalogEntry | undefined, what: string): void => {
      if (previous === undefined) return;
      throw new ToolkitError(
        entry.kind === 'prompt' ? 'DUPLICATE_PROMPT' : 'DUPLICATE_RESOURCE',
        `${what} is taken: ${previous.owner} already registered it, and ${entry.owner} registers it again. Rename one (the decorator's name, uri or uriTemplate).`,
      );
    };
    for (const entry of batch.entries) {
      if (entry.kind === 'prompt') {
        taken(entry, this.promptNames.get(entry.name) ?? prompts.get(entry.name), `Prompt name '${entry.name}'`);
        prompts.set(entry.name, entry);
        continue;
      }
      const where = entry.uri ?? entry.template!.template;
      taken(entry, entry.uri !== undefined ? this.fixed.get(where) : this.template(where), `Resource ${entry.uri !== undefined ? 'URI' : 'template'} '${where}'`);
      taken(entry, uris.get(where), `Resource ${entry.uri !== undefined ? 'URI' : 'template'} '${where}'`);
      taken(entry, this.resourceNames.get(entry.name) ?? names.get(entry.name), `Resource name '${entry.name}'`);
      uris.set(where, entry);
      names.set(entry.name, entry);
    }
  }

  /** Adds a batch {@link check}ed before. */
  add(batch: CatalogBatch): void {
    if (batch.entries.length === 0) return;
    for (const entry of batch.entries) {
      if (entry.kind === 'prompt') this.promptNames.set(entry.name, entry);
      else {
        if (entry.uri !== undefined) this.fixed.set(entry.uri, entry);
        else this.templateList.push(entry);
        this.resourceNames.set(entry.name, entry);
      }
    }
    this.version++;
  }
}
