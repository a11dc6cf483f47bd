import type { ManifestParam } from '../common/manifest';
import { ToolEmitter } from '../common/tool-emitter';
import { ToolkitError } from '../errors';
import type { ToolParamRecord } from '../metadata/records';
import type { ParamDescriptor } from '../metadata/tool-descriptor';
import { buildModelParam } from './model-param';
import { hasValidationMetadata, isUserClass } from './type-schema';

function describeParam(index: number, record?: ToolParamRecord, manifest?: ManifestParam): string {
  const name = record?.options.name ?? manifest?.name;
  return name ? `parameter '${name}' (#${index})` : `parameter #${index}`;
}

/**
 * Decides the kind of one parameter — filled by the model (`@ToolParam`, or the manifest says
 * so), or injected by type (`ToolEmitter`, `AbortSignal`, a context class) — and describes it.
 *
 * @throws ToolkitError `UNRESOLVABLE_PARAMETER` when neither applies, and the codes of
 *   {@link buildModelParam} for model parameters.
 * @internal
 */
export function buildParamDescriptor(
  owner: string,
  index: number,
  record: ToolParamRecord | undefined,
  manifest: ManifestParam | undefined,
  designType: unknown,
): ParamDescriptor {
  const label = describeParam(index, record, manifest);
  if (!record) {
    if (designType === ToolEmitter || manifest?.injected === 'emitter') return { kind: 'emitter', index };
    if (designType === AbortSignal || manifest?.injected === 'signal') return { kind: 'signal', index };
    if (manifest?.kind !== 'model' && isUserClass(designType)) {
      if (hasValidationMetadata(designType)) {
        throw new ToolkitError(
          'UNRESOLVABLE_PARAMETER',
          `${owner} ${label}: ${designType.name} carries class-validator decorators, so it looks like a DTO the model ` +
            `should fill, but it has no @ToolParam and would be injected as a context object. Add @ToolParam({ name: '…' }).`,
        );
      }
      return { kind: 'context', index, type: designType, typeName: designType.name };
    }
    if (manifest?.injected === 'context') {
      throw new ToolkitError(
        'UNRESOLVABLE_PARAMETER',
        `${owner} ${label}: the manifest says it is a context object of class ${manifest.typeName ?? '?'}, but ` +
          'reflection sees no class. Import the class as a value (not `import type`) and compile with tsc so ' +
          'decorator metadata names it.',
      );
    }
    if (manifest?.kind !== 'model') {
      throw new ToolkitError(
        'UNRESOLVABLE_PARAMETER',
        `${owner} ${label} has no @ToolParam and is not an injectable type. Add @ToolParam({ name: '…' }) so the ` +
          'model fills it, or declare it with a context class type (or ToolEmitter / AbortSignal) to inject it.',
      );
    }
  }
  return buildModelParam(owner, index, label, record?.options ?? {}, manifest, designType);
}
