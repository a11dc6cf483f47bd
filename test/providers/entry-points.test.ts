/**
 * The adapter entry points import only the SDKs' types: loading them must not load the SDKs
 * (they are optional peer dependencies; the user passes a client instance).
 */
describe('provider entry points do not load the vendor SDKs', () => {
  afterEach(() => jest.resetModules());

  test.each([
    ['../../src/providers/openai', 'openai', 'OpenAIProvider'],
    ['../../src/providers/anthropic', '@anthropic-ai/sdk', 'AnthropicProvider'],
    ['../../src/providers/gemini', '@google/genai', 'GeminiProvider'],
  ])('%s', (entry, sdk, exported) => {
    jest.resetModules();
    jest.doMock(sdk, () => {
      throw new Error(`${sdk} was loaded by ${entry}`);
    });
    let loaded: Record<string, unknown> = {};
    jest.isolateModules(() => {
      loaded = require(entry) as Record<string, unknown>;
    });
    expect(typeof loaded[exported]).toBe('function');
    jest.dontMock(sdk);
  });
});
