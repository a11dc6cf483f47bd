import type { ManifestMethod, ToolManifest } from '../model/manifest';
import type { ReadonlyJsonSchema } from '../model/json-schema';
import { parseUriTemplate } from '../utils/uri-template';
import { ToolkitError } from '../errors';
import type { PromptDescriptor, ResourceDescriptor } from '../metadata/catalog-descriptor';
import { mergedRecords, type CatalogMemberOptions, type CompleteCallback, type Constructor, type ParamRecords } from '../metadata/records';
import type { ParamDescriptor } from '../metadata/tool-descriptor';
import { snakeCase } from '../metadata/tool-name';
import { methodParams } from './descriptor-builder';

export type { CatalogDescriptorBase, PromptDescriptor, ResourceDescriptor } from '../metadata/catalog-descriptor';

const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/;
const MAX_URI_CHARS = 2048;
const SCALAR_TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean']);

/** True when a value of `schema` can be written as text: a scalar type, or an enum of scalars. */
function isScalar(schema: ReadonlyJsonSchema): boolean {
  if (schema.type !== undefined) return SCALAR_TYPES.has(schema.type);
  return Array.isArray(schema.enum) && schema.enum.every((v) => ['string', 'number', 'boolean'].includes(typeof v));
}

/**
 * Checks that each parameter can come from text: resources and prompts get their arguments as
 * strings (template variables, MCP prompt arguments), so a parameter is a scalar, an enum, a
 * date, or (for an exploded template variable, checked with the template) an array of those.
 */
function checkParams(owner: string, params: readonly ParamDescriptor[], lists: boolean): void {
  for (const param of params) {
    if (param.kind === 'emitter') {
      throw new ToolkitError(
        'INVALID_DEFINITION',
        `${owner}: parameter #${param.index} is injected into tools only (a ToolEmitter); resources and prompts take their arguments, context objects, an AbortSignal and ClientRequests. Remove it.`,
      );
    }
    if (param.kind !== 'model' || param.preset) continue;
    const label = `parameter '${param.name}'`;
    if (param.dto !== undefined) {
      throw new ToolkitError('INVALID_DEFINITION', `${owner} ${label} is a DTO class, but its value arrives as text: declare a string, number, boolean or enum.`);
    }
    const schema = param.schema;
    const list = schema.type === 'array' && typeof schema.items === 'object' && schema.items !== null && isScalar(schema.items as ReadonlyJsonSchema);
    if (!isScalar(schema) && !(lists && list)) {
      throw new ToolkitError(
        'INVALID_DEFINITION',
        `${owner} ${label} has type ${JSON.stringify(schema.type ?? 'unknown')}, but its value arrives as text: declare a string, number, integer, ` +
          `boolean or enum${lists ? ' (an array of those only for an exploded template variable such as {/path*})' : ''}.`,
      );
    }
  }
}

function completionsOf(params: readonly ParamDescriptor[], records: ParamRecords): Map<string, CompleteCallback> {
  const completions = new Map<string, CompleteCallback>();
  for (const param of params) {
    const complete = records.complete(param.index);
    if (complete !== undefined && param.kind === 'model') completions.set(param.name, complete);
  }
  return completions;
}

/** The parts every catalog member has: name (checked), title, group, timeout, parameters, completions. */
function baseOf(
  ctor: Constructor,
  methodName: string,
  decorator: string,
  options: CatalogMemberOptions,
  serviceGroup: string | undefined,
  records: ParamRecords,
  manifest: ManifestMethod | undefined,
  types: ToolManifest['types'],
) {
  const { owner, describe } = methodParams(ctor, methodName, decorator, records, manifest, types);
  const name = options.name ?? snakeCase(methodName);
  if (!NAME_PATTERN.test(name)) {
    throw new ToolkitError('INVALID_NAME', `${owner}: ${decorator} name '${name.slice(0, 200)}' is not valid; use 1-128 letters, digits, '_', '.' or '-'.`);
  }
  const { timeoutMs } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs >= 0)) {
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: timeoutMs must be a number of milliseconds >= 0 (0: no timeout), got ${String(timeoutMs)}.`);
  }
  const params = describe();
  const group = options.group ?? serviceGroup;
  return {
    owner,
    base: {
      className: ctor.name,
      methodName,
      name,
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(group !== undefined ? { group } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      params: Object.freeze(params),
      completions: completionsOf(params, records),
    },
  };
}

/**
 * Checks the `@Resource` and `@Prompt` records of a class (with the manifest entry of a method
 * that is also a `@Tool`) and returns their frozen descriptors. A resource has a `uri` or an
 * RFC 6570 `uriTemplate`; every argument arrives as text.
 *
 * @throws ToolkitError `INVALID_DEFINITION`, `INVALID_NAME`, `MISSING_DESCRIPTION`, and the codes of
 *   the parameter builder (`MISSING_NAME`, `UNRESOLVABLE_PARAMETER`, `DECORATOR_METADATA_MISSING`…).
 */
export function buildCatalogDescriptors(ctor: Constructor, manifest?: ToolManifest): { resources: ResourceDescriptor[]; prompts: PromptDescriptor[] } {
  const records = mergedRecords(ctor.prototype as object);
  const manifestClass = manifest?.classes[ctor.name];
  const resources = [...records.resources.values()].map(({ methodName, options }) => {
    const { owner, base } = baseOf(ctor, methodName, '@Resource', options, records.service.group, records.params(methodName), manifestClass?.methods[methodName], manifest?.types);
    const hasUri = typeof options.uri === 'string';
    if (hasUri === (typeof options.uriTemplate === 'string')) {
      throw new ToolkitError('INVALID_DEFINITION', `${owner}: @Resource needs exactly one of uri (a fixed resource) and uriTemplate (an RFC 6570 template).`);
    }
    const where = (hasUri ? options.uri : options.uriTemplate)!;
    if (where.length > MAX_URI_CHARS || !SCHEME.test(where)) {
      throw new ToolkitError('INVALID_DEFINITION', `${owner}: '${where.slice(0, 200)}' is not a URI: it needs a scheme (docs://…, file:///…), no spaces and at most ${MAX_URI_CHARS} characters.`);
    }
    if (hasUri && /[{}]/.test(where)) {
      throw new ToolkitError('INVALID_DEFINITION', `${owner}: uri '${where.slice(0, 200)}' has braces: declare a template with uriTemplate instead.`);
    }
    checkParams(owner, base.params, !hasUri);
    const descriptor: ResourceDescriptor = {
      kind: 'resource',
      ...base,
      ...(hasUri ? { uri: where } : { template: parseUriTemplate(where, owner) }),
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.mimeType !== undefined ? { mimeType: options.mimeType } : {}),
      ...(options.annotations !== undefined ? { annotations: Object.freeze({ ...options.annotations }) } : {}),
      ...(options.uri !== undefined && options.size !== undefined ? { size: options.size } : {}),
    };
    return Object.freeze(descriptor);
  });
  const prompts = [...records.prompts.values()].map(({ methodName, options }) => {
    const method = manifestClass?.methods[methodName];
    const { owner, base } = baseOf(ctor, methodName, '@Prompt', options, records.service.group, records.params(methodName), method, manifest?.types);
    const description = options.description ?? method?.description;
    if (!description) {
      throw new ToolkitError('MISSING_DESCRIPTION', `${owner}: prompt '${base.name}' has no description. Add @Prompt({ description: '…' }): clients show it to choose the prompt.`);
    }
    checkParams(owner, base.params, false);
    return Object.freeze<PromptDescriptor>({ kind: 'prompt', ...base, description });
  });
  return { resources, prompts };
}
