import type { ToolkitContainer } from '../di/services';
import { resolveService } from '../di/services';
import type { AgentTool, ToolBehaviour } from '../common/agent-tool';
import { isContextualTool } from '../common/agent-tool';
import type { JsonSchema, ObjectJsonSchema } from '../common/json-schema';
import type { ToolManifest } from '../common/manifest';
import { ToolkitError, describeThrown } from '../errors';
import { bindPresets, type PresetValue } from '../executor/presets';
import type { ToolEntry, ToolSource } from '../executor/tool-entry';
import { nullStripper } from '../schema/null-optionals';
import type { Constructor } from '../metadata/records';
import { assertToolName, buildToolDescriptors, deepFreeze, hasToolMethods, schemaProblems, type ToolDescriptor } from '../schema/descriptor-builder';
import { buildCatalogDescriptors } from '../schema/catalog-descriptors';
import { catalogEntry, type CatalogEntry } from '../resources/catalog-entry';
import { MethodTool } from './method-tool';
import type { RegisterOptions, ToolTarget } from './registration';

function isAgentToolObject(value: object): value is AgentTool {
  const v = value as Partial<AgentTool>;
  return typeof v.name === 'string' && typeof v.execute === 'function' && typeof v.parameters === 'object' && v.parameters !== null;
}

/**
 * @internal Turns what `registerTool` is given (a class, an instance, an `AgentTool`) into checked
 * tool entries: descriptors (with the manifest) or the AgentTool's schema, presets hidden from the
 * schema, the service resolved from the container. Definition-time faults throw `ToolkitError`s
 * naming the owner and the fix.
 */
export class ToolEntries {
  constructor(
    private readonly container: ToolkitContainer,
    private readonly manifest: ToolManifest | undefined,
  ) {}

  /**
   * The tool entries of `target`; the entries of a service's resources and prompts go to
   * `catalog` (registered together with its tools, into the same group).
   */
  entriesFor(target: ToolTarget, options: RegisterOptions, bound: Constructor[], catalog: CatalogEntry[]): ToolEntry[] {
    if (typeof target === 'function') {
      const ctor = target as Constructor;
      const descriptors = buildToolDescriptors(ctor, this.manifest);
      const members = buildCatalogDescriptors(ctor, this.manifest);
      const instance = resolveService(this.container, ctor, bound);
      return this.serviceEntries(descriptors, members, instance, options, catalog);
    }
    if (typeof target === 'object' && target !== null) {
      const prototype = Object.getPrototypeOf(target) as object | null;
      if (prototype && hasToolMethods(prototype)) {
        const ctor = prototype.constructor as Constructor;
        return this.serviceEntries(buildToolDescriptors(ctor, this.manifest), buildCatalogDescriptors(ctor, this.manifest), target, options, catalog);
      }
      if (isAgentToolObject(target)) return [this.agentEntry(target, options, 'component')];
    }
    throw new ToolkitError(
      'INVALID_DEFINITION',
      `registerTool() takes a class with @Tool methods, an instance of one, or an AgentTool object ({ name, description, parameters, execute }); got ${describeThrown(target)}.`,
    );
  }

  private serviceEntries(
    descriptors: readonly ToolDescriptor[],
    members: ReturnType<typeof buildCatalogDescriptors>,
    instance: object,
    options: RegisterOptions,
    catalog: CatalogEntry[],
  ): ToolEntry[] {
    for (const descriptor of [...members.resources, ...members.prompts]) catalog.push(catalogEntry(descriptor, instance, options.group, options.presets));
    return descriptors.map((d) => this.methodEntry(d, instance, options));
  }

  private methodEntry(descriptor: ToolDescriptor, instance: object, options: RegisterOptions): ToolEntry {
    const owner = `${descriptor.className}.${descriptor.methodName}`;
    const modelParams = descriptor.params.filter((p) => p.kind === 'model');
    const presets = bindPresets(
      owner,
      `tool '${descriptor.name}'`,
      descriptor.name,
      options.presets?.[descriptor.name],
      modelParams.map((p) => p.name),
      modelParams.filter((p) => p.preset === true).map((p) => p.name),
    );
    const hidden = new Set(presets?.map((p) => p.name));
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const dtos: { name: string; type: Constructor; array: boolean }[] = [];
    for (const param of modelParams) {
      if (hidden.has(param.name)) continue;
      properties[param.name] = param.schema;
      if (param.required) required.push(param.name);
      if (param.dto) dtos.push({ name: param.name, ...param.dto });
    }
    const schema = deepFreeze<ObjectJsonSchema>({
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    });
    const behaviour: ToolBehaviour = options.group !== undefined ? { ...descriptor.behaviour, group: options.group } : descriptor.behaviour;
    const tool = new MethodTool(descriptor, schema, instance, behaviour);
    return this.entry(tool, tool, schema, owner, behaviour, 'component', presets, dtos);
  }

  agentEntry(tool: AgentTool, options: RegisterOptions, source: ToolSource): ToolEntry {
    const owner = `AgentTool '${tool.name}'`;
    assertToolName(tool.name, owner);
    if (typeof tool.description !== 'string' || tool.description.trim() === '') {
      throw new ToolkitError('MISSING_DESCRIPTION', `${owner} has no description: the model needs one to choose the tool.`, { tool: tool.name });
    }
    if (tool.parameters.type !== 'object') {
      throw new ToolkitError('INVALID_DEFINITION', `${owner}: parameters must be a JSON Schema with type 'object' at the root.`, { tool: tool.name });
    }
    const problems = schemaProblems(tool.parameters);
    if (problems !== undefined) {
      throw new ToolkitError('INVALID_DEFINITION', `${owner}: parameters is not a valid JSON Schema: ${problems}.`, { tool: tool.name });
    }
    const properties = tool.parameters.properties ?? {};
    const presets = bindPresets(owner, `tool '${tool.name}'`, tool.name, options.presets?.[tool.name], Object.keys(properties));
    let schema: ObjectJsonSchema = { ...tool.parameters, properties };
    let view: AgentTool = tool;
    if (presets) {
      const hidden = new Set(presets.map((p) => p.name));
      const visible = Object.fromEntries(Object.entries(properties).filter(([k]) => !hidden.has(k)));
      const required = (tool.parameters.required ?? []).filter((k) => !hidden.has(k));
      schema = { ...tool.parameters, properties: visible, ...(required.length ? { required } : {}) };
      if (!required.length) delete schema.required;
      const frozen = deepFreeze(schema);
      view = Object.freeze({
        name: tool.name,
        description: tool.description,
        parameters: frozen,
        ...(tool.behaviour ? { behaviour: tool.behaviour } : {}),
        execute: (args: Record<string, unknown>, ctx: Parameters<AgentTool['execute']>[1]) => tool.execute(args, ctx),
      });
    }
    const behaviour: ToolBehaviour = { ...(tool.behaviour ?? {}), ...(options.group !== undefined ? { group: options.group } : {}) };
    return this.entry(view, tool, deepFreeze(schema), owner, behaviour, source, presets, []);
  }

  private entry(
    tool: AgentTool,
    target: AgentTool,
    schema: ObjectJsonSchema,
    owner: string,
    behaviour: ToolBehaviour,
    source: ToolSource,
    presets: { name: string; value: PresetValue }[] | undefined,
    dtos: { name: string; type: Constructor; array: boolean }[],
  ): ToolEntry {
    checkScopes(behaviour.scopes, owner);
    checkRepair(behaviour.repair, owner);
    return {
      name: tool.name,
      owner,
      ...(behaviour.group !== undefined ? { group: behaviour.group } : {}),
      source,
      behaviour,
      tool,
      target,
      schema,
      definition: Object.freeze({ name: tool.name, description: tool.description, parameters: schema }),
      ...(presets ? { presets } : {}),
      ...(dtos.length ? { dtos } : {}),
      // made on the first call that needs it (and cached with the schema), not for every tool up front
      get stripNulls() {
        return nullStripper(schema);
      },
      contextual: isContextualTool(target),
    };
  }
}

/** `scopes` of a tool: non-empty strings (a typo such as `scopes: 'admin'` would grant nothing it means). */
function checkScopes(scopes: unknown, owner: string): void {
  if (scopes === undefined) return;
  if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string' || scope === '')) {
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: scopes must be an array of non-empty strings, e.g. @Tool({ scopes: ['reports:write'] }).`);
  }
}

/** `repair` of a tool: `'safe'` or `'off'` (a typo such as `repair: true` would silently stay off). */
function checkRepair(repair: unknown, owner: string): void {
  if (repair !== undefined && repair !== 'safe' && repair !== 'off') {
    throw new ToolkitError('INVALID_DEFINITION', `${owner}: repair must be 'safe' or 'off', got ${JSON.stringify(repair)}.`);
  }
}
