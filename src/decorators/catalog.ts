import { legacyOnly } from './tool';
import { ownRecords, recordParam, type PromptArgOptions, type PromptOptions, type ResourceOptions, type ResourceParamOptions } from '../metadata/records';

/**
 * Serves a method as an MCP resource: a fixed `uri` (listed by `resources/list`), or an RFC 6570
 * `uriTemplate` whose variables are the method's `@ResourceParam`s (`resources/templates/list`).
 * The method returns the content: a string (text), a `Uint8Array`/`Buffer` (a base64 blob), any
 * other value as JSON text, or `{ contents: [...] }` to say everything. Context objects, presets,
 * an `AbortSignal` and `ClientRequests` are injected as for tools; the resource belongs to the service's group.
 * Records metadata only; `registerTool` checks it.
 *
 * @example
 * @Resource({ uriTemplate: 'docs://pages/{slug}', name: 'page', mimeType: 'text/markdown' })
 * page(@ResourceParam('slug') slug: string): Promise<string> { … }
 */
export function Resource(options: ResourceOptions): MethodDecorator {
  return (target, propertyKey) => {
    legacyOnly('@Resource', propertyKey);
    const methodName = String(propertyKey);
    ownRecords(target).resources.set(methodName, { methodName, options: { ...options } });
  };
}

/**
 * Serves a method as an MCP prompt. Its `@PromptArg`s are the prompt's arguments; it returns a
 * string (one user message), an array of `{ role, content }` messages, or `{ description?,
 * messages }`. Context objects, presets, an `AbortSignal` and `ClientRequests` are injected as for tools. Records
 * metadata only; `registerTool` checks it.
 *
 * @example
 * @Prompt({ name: 'review', description: 'Review a pull request' })
 * review(@PromptArg({ name: 'pr', description: 'PR number', complete: (v) => openPrs(v) }) pr: number) {
 *   return `Review pull request #${pr}. Be concise.`;
 * }
 */
export function Prompt(options: PromptOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    legacyOnly('@Prompt', propertyKey);
    const methodName = String(propertyKey);
    ownRecords(target).prompts.set(methodName, { methodName, options: { ...options } });
  };
}

function argument(nameOrOptions: string | PromptArgOptions): ParameterDecorator {
  const { complete, ...options } = typeof nameOrOptions === 'string' ? { name: nameOrOptions } : nameOrOptions;
  return (target, propertyKey, index) => {
    if (propertyKey === undefined) return; // constructor parameters belong to Inversify
    recordParam(target, String(propertyKey), index, { options, ...(complete !== undefined ? { complete } : {}) });
  };
}

/**
 * An argument of a `@Prompt` method: `@ToolParam`'s options plus `complete`, which suggests
 * values as the user types (MCP `completion/complete`). The client sends text; it is converted to
 * the parameter's type and validated before the method runs.
 *
 * @example
 * summarize(@PromptArg({ name: 'style', enum: ['short', 'long'], required: false }) style?: string) { … }
 */
export function PromptArg(nameOrOptions: string | PromptArgOptions): ParameterDecorator {
  return argument(nameOrOptions);
}

/**
 * A variable of a `@Resource({ uriTemplate })` method, by its name in the template: `@ToolParam`'s
 * options plus `complete` (MCP completion). The text from the URI is converted to the parameter's
 * type (an exploded `{/path*}` to a `string[]`) and validated before the method runs.
 *
 * @example
 * @Resource({ uriTemplate: 'orders://{id}', name: 'order' })
 * order(@ResourceParam({ name: 'id', integer: true, complete: (v) => recentIds(v) }) id: number) { … }
 */
export function ResourceParam(nameOrOptions: string | ResourceParamOptions): ParameterDecorator {
  return argument(nameOrOptions);
}
