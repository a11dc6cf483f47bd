import { Prompt, PromptArg, ToolService, type PromptMessageInput } from '../../src';

/** A 1×1 PNG: the image of `test_prompt_with_image`. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * The prompts the conformance suite's `prompts-*` and `completion-complete` scenarios get by
 * name, written as a user writes toolwright prompts: a decorated service. Each method's JSDoc
 * names its scenario.
 */
@ToolService({ group: 'conformance' })
export class ConformancePromptsService {
  /** `prompts-list`, `prompts-get-simple`: a string is one user message. */
  @Prompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments' })
  simple(): string {
    return 'This is a simple prompt for testing.';
  }

  /** `prompts-get-with-args`, `completion-complete` (values for `arg1`). */
  @Prompt({ name: 'test_prompt_with_arguments', description: 'A prompt with two required arguments' })
  withArguments(
    @PromptArg({ name: 'arg1', description: 'First test argument', complete: (value) => ['paris', 'park', 'party', 'test'].filter((v) => v.startsWith(value)) }) arg1: string,
    @PromptArg({ name: 'arg2', description: 'Second test argument' }) arg2: string,
  ): string {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  /** `prompts-get-embedded-resource`: a resource embedded in a message. */
  @Prompt({ name: 'test_prompt_with_embedded_resource', description: 'A prompt that embeds a resource' })
  withEmbeddedResource(@PromptArg({ name: 'resourceUri', description: 'URI of the resource to embed' }) resourceUri: string): PromptMessageInput[] {
    return [
      { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: 'Please process the embedded resource above.' },
    ];
  }

  /** `prompts-get-with-image`: bytes become base64 image data. */
  @Prompt({ name: 'test_prompt_with_image', description: 'A prompt with an image' })
  withImage(): PromptMessageInput[] {
    return [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: 'Please analyze the image above.' },
    ];
  }
}
