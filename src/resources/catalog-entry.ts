import type { ValidateFunction } from 'ajv';
import type { JsonSchema, ObjectJsonSchema } from '../model/json-schema';
import type { UriTemplate } from '../utils/uri-template';
import { ToolkitError } from '../errors';
import { AsyncCompletion } from '../executor/async/async-completion';
import { bindPresets, type BoundPreset, type PresetMap } from '../executor/presets/presets';
import { deepFreeze } from '../schema/descriptor-builder';
import type { PromptDescriptor, ResourceDescriptor } from '../schema/catalog-descriptors';
import type { ModelParamDescriptor, ParamDescriptor } from '../schema/descriptor-builder';
import type { PromptInfo, ResourceInfo, ResourceTemplateInfo } from './catalog-types';

/** @internal What a catalog entry is: a fixed resource, a resource template, or a prompt. */
export type CatalogKind = 'resource' | 'template' | 'prompt';

/** @internal One registered resource, resource template or prompt, with everything a read needs. */
export interface CatalogEntry {
  readonly kind: CatalogKind;
  readonly name: string;
  /** `Class.method`, for duplicate errors. */
  readonly owner: string;
  readonly group?: string;
  readonly descriptor: ResourceDescriptor | PromptDescriptor;
  readonly instance: object;
  readonly presets?: readonly BoundPreset[];
  /** The parameters the client fills (template variables, prompt arguments), presets left out. */
  readonly args: readonly ModelParamDescriptor[];
  /** `args` as an object schema, for validation. */
  readonly schema: ObjectJsonSchema;
  /** What listings show: frozen. */
  readonly info: ResourceInfo | ResourceTemplateInfo | PromptInfo;
  /** Set for a fixed resource. */
  readonly uri?: string;
  /** Set for a resource template. */
  readonly template?: UriTemplate;
  validator?: ValidateFunction;
}

/** The key of a resource's or a prompt's presets in a registration's preset map. */
export function presetKey(kind: CatalogKind, name: string): string {
  return `${kind === 'prompt' ? 'prompt' : 'resource'}:${name}`;
}

/** Template variables and the parameters that take them must agree: each visible parameter is a variable, an array exactly when exploded. */
function checkVariables(owner: string, descriptor: ResourceDescriptor, args: readonly ModelParamDescriptor[]): void {
  const template = descriptor.template;
  for (const param of args) {
    const variable = template?.variables.find((v) => v.name === param.name);
    if (variable === undefined) {
      throw new ToolkitError(
        'INVALID_DEFINITION',
        template === undefined
          ? `${owner}: resource '${descriptor.name}' has a fixed uri, so nothing fills parameter '${param.name}': use uriTemplate with {${param.name}}, bind a preset, or inject it.`
          : `${owner}: parameter '${param.name}' is not a variable of '${template.template}' (its variables: ${template.variables.map((v) => v.name).join(', ') || 'none'}): rename it, or bind a preset.`,
      );
    }
    if (variable.explode !== (param.schema.type === 'array')) {
      throw new ToolkitError(
        'INVALID_DEFINITION',
        `${owner}: parameter '${param.name}' ${variable.explode ? `takes the exploded variable {${variable.operator}${param.name}*}: declare it string[] (type: () => [String])` : 'is an array, but its variable is not exploded: write it {name*} in the template, or declare a scalar'}.`,
      );
    }
  }
}

function infoOf(descriptor: ResourceDescriptor | PromptDescriptor, args: readonly ModelParamDescriptor[]): ResourceInfo | ResourceTemplateInfo | PromptInfo {
  const common = {
    name: descriptor.name,
    ...(descriptor.title !== undefined ? { title: descriptor.title } : {}),
    ...(descriptor.description !== undefined ? { description: descriptor.description } : {}),
  };
  if (descriptor.kind === 'prompt') {
    const argumentsOf = args.map((p) => ({ name: p.name, ...(p.schema.description !== undefined ? { description: p.schema.description } : {}), required: p.required }));
    return deepFreeze<PromptInfo>({ ...common, description: descriptor.description, arguments: argumentsOf });
  }
  const details = {
    ...(descriptor.mimeType !== undefined ? { mimeType: descriptor.mimeType } : {}),
    ...(descriptor.annotations !== undefined ? { annotations: descriptor.annotations } : {}),
  };
  if (descriptor.template !== undefined) return deepFreeze<ResourceTemplateInfo>({ uriTemplate: descriptor.template.template, ...common, ...details });
  return deepFreeze<ResourceInfo>({ uri: descriptor.uri!, ...common, ...details, ...(descriptor.size !== undefined ? { size: descriptor.size } : {}) });
}

/**
 * @internal The entry of a resource or prompt descriptor on `instance`, with the registration's
 * group and presets (under `'resource:<name>'` / `'prompt:<name>'`).
 *
 * @throws ToolkitError `INVALID_DEFINITION`: presets naming no parameter or left unbound, a
 *   `complete` on a preset, parameters that are no template variable, `AsyncCompletion` injected.
 */
export function catalogEntry(descriptor: ResourceDescriptor | PromptDescriptor, instance: object, group: string | undefined, presetMap: PresetMap | undefined): CatalogEntry {
  const owner = `${descriptor.className}.${descriptor.methodName}`;
  const kind: CatalogKind = descriptor.kind === 'prompt' ? 'prompt' : descriptor.template !== undefined ? 'template' : 'resource';
  const key = presetKey(kind, descriptor.name);
  const model = descriptor.params.filter((p): p is ModelParamDescriptor => p.kind === 'model');
  const presets = bindPresets(
    owner,
    `${kind === 'prompt' ? 'prompt' : 'resource'} '${descriptor.name}'`,
    key,
    presetMap?.[key],
    model.map((p) => p.name),
    model.filter((p) => p.preset === true).map((p) => p.name),
  );
  const hidden = new Set(presets?.map((p) => p.name));
  const args = model.filter((p) => !hidden.has(p.name));
  for (const name of descriptor.completions.keys()) {
    if (hidden.has(name)) throw new ToolkitError('INVALID_DEFINITION', `${owner}: parameter '${name}' has a preset, so nobody types it: remove its complete callback.`);
  }
  if (descriptor.params.some((p: ParamDescriptor) => p.kind === 'context' && p.type === AsyncCompletion)) {
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: AsyncCompletion is for tools; a resource or prompt answers when its method returns (a Promise is fine).`);
  }
  if (descriptor.kind === 'resource') checkVariables(owner, descriptor, args);
  const properties: Record<string, JsonSchema> = {};
  for (const param of args) properties[param.name] = param.schema;
  const required = args.filter((p) => p.required).map((p) => p.name);
  const effectiveGroup = group ?? descriptor.group;
  return {
    kind,
    name: descriptor.name,
    owner,
    ...(effectiveGroup !== undefined ? { group: effectiveGroup } : {}),
    descriptor,
    instance,
    ...(presets ? { presets } : {}),
    args: Object.freeze(args),
    schema: deepFreeze<ObjectJsonSchema>({ type: 'object', properties, ...(required.length ? { required } : {}) }),
    info: infoOf(descriptor, args),
    ...(descriptor.kind === 'resource' && descriptor.uri !== undefined ? { uri: descriptor.uri } : {}),
    ...(descriptor.kind === 'resource' && descriptor.template !== undefined ? { template: descriptor.template } : {}),
  };
}
