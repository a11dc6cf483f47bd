import { ClientRequests } from '../model/client-requests';
import type { ContextKey } from '../model/execution-context';
import type { ManifestParam, ToolManifest } from '../model/manifest';
import { ToolEmitter } from '../model/tool-emitter';
import { ToolkitError } from '../errors';
import type { ToolParamOptions } from '../metadata/records';
import type { ParamDescriptor } from '../metadata/tool-descriptor';
import { manifestType } from './manifest-types';
import { erasedClassHint } from './erased-class';
import { buildModelParam } from './model-param';
import { hasValidationMetadata, isUserClass } from './type-schema';

/** Everything known about one parameter: the decorators, the manifest and reflection. */
export interface ParamSources {
  /** `@ToolParam`'s options (also `@PromptArg`'s, `@ResourceParam`'s): the model (or a preset) fills it. */
  readonly options: ToolParamOptions | undefined;
  /** `@InjectContext`'s key: the call's context fills it. */
  readonly context: ContextKey | undefined;
  /** The manifest's entry for the parameter. */
  readonly manifest: ManifestParam | undefined;
  /** The manifest module's classes. */
  readonly types: ToolManifest['types'];
  /** `design:paramtypes` for the parameter (`undefined` without decorator metadata). */
  readonly designType: unknown;
}

function describeParam(index: number, { options, manifest }: ParamSources): string {
  const name = options?.name ?? manifest?.name;
  return name ? `parameter '${name}' (#${index})` : `parameter #${index}`;
}

/** What reflection reported, for messages. */
function sawType(designType: unknown): string {
  if (designType === undefined) return 'no decorator metadata for it';
  return `reflection saw ${typeof designType === 'function' ? designType.name || 'an anonymous function' : String(designType)}`;
}

/** How a context key reads in messages: a class's name, a symbol's description, a string. */
function keyName(key: ContextKey): string {
  if (typeof key === 'function') return key.name || 'an anonymous class';
  return typeof key === 'symbol' ? key.toString() : JSON.stringify(key);
}

/**
 * A parameter without `@ToolParam` that the manifest does not call a model parameter: a context
 * object of the class reflection sees or, without decorator metadata, the class the manifest
 * module names. A class with class-validator rules is a DTO missing its `@ToolParam`, whichever
 * of the two names it.
 */
function contextParam(owner: string, index: number, label: string, { manifest, types, designType }: ParamSources): ParamDescriptor {
  let type: unknown = designType;
  if (!isUserClass(type)) {
    if (manifest?.injected !== 'context') {
      throw new ToolkitError(
        'UNRESOLVABLE_PARAMETER',
        `${owner} ${label} has no @ToolParam and is not an injectable type (${sawType(designType)}). Add @ToolParam({ name: '…' }) so the ` +
          'model fills it, or declare it with a context class type (or ToolEmitter / AbortSignal / ClientRequests) to inject it, or mark it @InjectContext(key).' +
          erasedClassHint(designType, manifest?.typeName, (type) => `@InjectContext(${type}) for a context object, @ToolParam({ name: '…', type: () => ${type} }) for a DTO`),
      );
    }
    type = manifestType(owner, label, manifest, types, `@InjectContext(${manifest.typeName ?? 'TheClass'})`, designType)?.type;
    if (!isUserClass(type)) {
      throw new ToolkitError(
        'UNRESOLVABLE_PARAMETER',
        `${owner} ${label}: the manifest says it is a context object but names no class. Fix: mark it @InjectContext(TheClass), or regenerate the manifest.`,
      );
    }
  }
  if (hasValidationMetadata(type)) {
    throw new ToolkitError(
      'UNRESOLVABLE_PARAMETER',
      `${owner} ${label}: ${type.name} carries class-validator decorators, so it looks like a DTO the model ` +
        `should fill, but it has no @ToolParam and would be injected as a context object. Add @ToolParam({ name: '…' }).`,
    );
  }
  return { kind: 'context', index, type, typeName: type.name };
}

/**
 * Decides the kind of one parameter — filled by the model (`@ToolParam`, or the manifest says
 * so), injected by `@InjectContext(key)`, or injected by type (`ToolEmitter`, `AbortSignal`, `ClientRequests`, a
 * context class seen by reflection or named by the manifest module) — and describes it.
 *
 * @throws ToolkitError `INVALID_DEFINITION` for `@ToolParam` and `@InjectContext` on one
 *   parameter; `UNRESOLVABLE_PARAMETER` when no kind applies or the manifest names a class it
 *   cannot deliver; the codes of {@link buildModelParam} for model parameters.
 * @internal
 */
export function buildParamDescriptor(owner: string, index: number, sources: ParamSources): ParamDescriptor {
  const { context, manifest, designType } = sources;
  const label = describeParam(index, sources);
  if (context !== undefined) {
    if (sources.options !== undefined) {
      throw new ToolkitError(
        'INVALID_DEFINITION',
        `${owner} ${label} has both @ToolParam and @InjectContext: keep @ToolParam when the model fills it, @InjectContext when the context does.`,
      );
    }
    // what reflection would inject by type, said by the decorator where there is no reflection
    if (context === ToolEmitter) return { kind: 'emitter', index };
    if (context === AbortSignal) return { kind: 'signal', index };
    if (context === ClientRequests) return { kind: 'client', index };
    return { kind: 'context', index, type: context, typeName: keyName(context) };
  }
  if (sources.options === undefined) {
    if (designType === ToolEmitter || manifest?.injected === 'emitter') return { kind: 'emitter', index };
    if (designType === AbortSignal || manifest?.injected === 'signal') return { kind: 'signal', index };
    if (designType === ClientRequests || manifest?.injected === 'client') return { kind: 'client', index };
    if (manifest?.kind !== 'model') return contextParam(owner, index, label, sources);
  }
  const options = sources.options ?? {};
  // Reflection wins where it sees the class; the manifest module names it where reflection cannot.
  const declared =
    options.type !== undefined || options.enum !== undefined || isUserClass(designType) || designType === Date
      ? undefined
      : manifestType(owner, label, manifest, sources.types, `@ToolParam({ type: () => ${manifest?.array ? `[${manifest.typeName}]` : manifest?.typeName} })`, designType);
  return buildModelParam(owner, index, label, options, manifest, designType, declared);
}
