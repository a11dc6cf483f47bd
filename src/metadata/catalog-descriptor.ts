import type { UriTemplate } from '../utils/uri-template';
import type { CompleteCallback, ResourceAnnotations } from './records';
import type { ParamDescriptor } from './tool-descriptor';

/** What resources and prompts have in common: a decorated method with arguments that arrive as text. */
export interface CatalogDescriptorBase {
  readonly className: string;
  readonly methodName: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly group?: string;
  readonly timeoutMs?: number;
  readonly params: readonly ParamDescriptor[];
  /** The completion callbacks of the arguments, by argument name. */
  readonly completions: ReadonlyMap<string, CompleteCallback>;
}

/** The checked, frozen description of one `@Resource` method: a fixed `uri` or a `template`. */
export interface ResourceDescriptor extends CatalogDescriptorBase {
  readonly kind: 'resource';
  readonly uri?: string;
  readonly template?: UriTemplate;
  readonly mimeType?: string;
  readonly annotations?: ResourceAnnotations;
  readonly size?: number;
}

/** The checked, frozen description of one `@Prompt` method. */
export interface PromptDescriptor extends CatalogDescriptorBase {
  readonly kind: 'prompt';
  readonly description: string;
}
