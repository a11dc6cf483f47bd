import type { ToolkitContainer } from '../di/services';
import { resolveService } from '../di/services';
import type { AgentTool, StandardAgentTool, ToolBehaviour } from '../model/agent-tool';
import { isContextualTool } from '../model/agent-tool';
import type { JsonSchema, ObjectJsonSchema } from '../model/json-schema';
import type { ToolManifest } from '../model/manifest';
import { isStandardSchema, type StandardSchemaLike } from '../model/standard-schema';
import { ToolkitError, describeThrown } from '../errors/toolkit-error';
import { bindPresets, type PresetValue } from '../executor/presets/presets';
import type { ToolEntry, ToolSource } from '../executor/tool-entry';
import { nullStripper } from '../schema/null-optionals';
import { standardJsonSchema } from '../schema/standard-json-schema';
import type { Constructor } from '../metadata/records';
import { assertToolName, buildToolDescriptors, deepFreeze, hasToolMethods, schemaProblems, type ToolDescriptor } from '../schema/descriptor-builder';
import { buildCatalogDescriptors } from '../schema/catalog-descriptors';
import type { CatalogBatch } from '../resources/catalog-batch';
import { MethodTool } from './method-tool';
import { checkExamples } from './tool-examples';
import type { RegisterOptions, ToolTarget } from './registration';

function isAgentToolObject(value: object): value is AgentTool {
  const v = value as Partial<AgentTool>;
  return typeof v.name === 'string' && typeof v.execute === 'function' && ((typeof v.parameters === 'object' && v.parameters !== null) || isStandardSchema(v.parameters));
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
  entriesFor(target: ToolTarget, options: RegisterOptions, bound: Constructor[], catalog: CatalogBatch): ToolEntry[] {
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
    catalog: CatalogBatch,
  ): ToolEntry[] {
    catalog.addService(members, instance, options.group, options.presets);
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
      true,
    );
    const hidden = new Set(presets?.map((p) => p.name));
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const dtos: { name: string; type: Constructor; array: boolean }[] = [];
    const standard: { name: string; schema: StandardSchemaLike }[] = [];
    for (const param of modelParams) {
      if (hidden.has(param.name)) continue;
      properties[param.name] = param.schema;
      if (param.required) required.push(param.name);
      if (param.dto) dtos.push({ name: param.name, ...param.dto });
      if (param.standard) standard.push({ name: param.name, schema: param.standard });
    }
    // key order as models are shown it: type, properties, required, additionalProperties
    const objectOf = (props: Record<string, JsonSchema>): ObjectJsonSchema =>
      deepFreeze<ObjectJsonSchema>({ type: 'object', properties: props, ...(required.length ? { required } : {}), additionalProperties: false });
    const schema = objectOf(properties);
    // the library of a Standard Schema parameter validates it, with its own messages
    const checked = standard.length ? { ...properties, ...Object.fromEntries(standard.map((p) => [p.name, {}])) } : undefined;
    const behaviour: ToolBehaviour = options.group !== undefined ? { ...descriptor.behaviour, group: options.group } : descriptor.behaviour;
    const tool = new MethodTool(descriptor, schema, instance, behaviour);
    const extras = checked ? { standard, checkSchema: objectOf(checked) } : {};
    return this.entry(tool, tool, schema, owner, behaviour, 'component', presets, dtos, extras);
  }

  agentEntry(given: AgentTool | StandardAgentTool, options: RegisterOptions, source: ToolSource): ToolEntry {
    const owner = `AgentTool '${given.name}'`;
    const input = isStandardSchema(given.parameters) ? given.parameters : undefined;
    const tool: AgentTool = input ? withJsonParameters(given, standardJsonSchema(input, owner)) : (given as AgentTool);
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
    // the library validates the whole input: the compiled validator only checks the root and the presets
    const extras = input ? { standard: [{ schema: input }], checkSchema: deepFreeze<ObjectJsonSchema>({ type: 'object', properties: {} }) } : {};
    return this.entry(view, tool, deepFreeze(schema), owner, behaviour, source, presets, [], extras);
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
    extras: Pick<ToolEntry, 'standard' | 'checkSchema'> = {},
  ): ToolEntry {
    // a preset parameter of a decorated tool is not in the schema; of an AgentTool, it was taken out
    const examples = checkExamples(behaviour.examples, schema, presets ?? [], owner);
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
      definition: Object.freeze({ name: tool.name, description: tool.description, parameters: schema, ...(examples ? { examples } : {}) }),
      ...(presets ? { presets } : {}),
      ...(dtos.length ? { dtos } : {}),
      ...extras,
      // made on the first call that needs it (and cached with the schema), not for every tool up front
      get stripNulls() {
        return nullStripper(schema);
      },
      contextual: isContextualTool(target),
    };
  }
}

/** `tool` with `parameters` the JSON Schema `converted` from its Standard Schema (its other members kept, `execute` bound). */
function withJsonParameters(tool: AgentTool | StandardAgentTool, converted: JsonSchema): AgentTool {
  if (converted.type !== 'object') {
    throw new ToolkitError('INVALID_DEFINITION', `AgentTool '${tool.name}': its Standard Schema parameters must describe an object (e.g. z.object({ … })).`, { tool: tool.name });
  }
  const copy = Object.create(tool) as { parameters: ObjectJsonSchema };
  Object.defineProperty(copy, 'parameters', { value: converted, enumerable: true });
  return copy as unknown as AgentTool;
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
