import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type ts from 'typescript';
import { diagnosticsOf, diagnosticsText, USER_COMPILER_OPTIONS } from '../support/typecheck';

/**
 * `toolwright/ai-sdk`'s types against AI SDK 7's (the `ai-v7` dev dependency standing in for a
 * user's `ai` 7): a tool set takes an optional `toolsContext` whose entries are
 * `ToolExecutionContext`s, and nothing else. The project's own typecheck sees `ai` 6 only.
 */

const ROOT = path.join(__dirname, '../..');
const AI_V7_TYPES = path.join(ROOT, 'node_modules/ai-v7/dist/index.d.ts');

const USAGE = (src: string): string => `
import { generateText, isStepCount, type LanguageModel, type ToolSet } from 'ai';
import { ToolExecutionContext, type Toolkit } from '${src}/index';
import { toAiSdkTools, toAiSdkToolsContext } from '${src}/adapters/ai-sdk/index';
declare const model: LanguageModel;
declare const toolkit: Toolkit;
class User { constructor(readonly id: string) {} }
export async function run(): Promise<void> {
  const tools = toAiSdkTools(toolkit.session('s'));
  const set: ToolSet = tools;
  await generateText({ model, tools, prompt: 'no toolsContext' });
  await generateText({ model, tools: set, prompt: 'as a ToolSet' });
  await generateText({ model, tools, toolsContext: toAiSdkToolsContext(tools, ToolExecutionContext.of(new User('u'))), stopWhen: isStepCount(3), prompt: 'every tool' });
  await generateText({ model, tools, toolsContext: { get_weather: ToolExecutionContext.of(new User('u')) }, prompt: 'one tool' });
  // @ts-expect-error a tool's context is a ToolExecutionContext
  await generateText({ model, tools, toolsContext: { get_weather: { id: 'u' } }, prompt: 'a plain object' });
}
`;

const OPTIONS: ts.CompilerOptions = { ...USER_COMPILER_OPTIONS, paths: { ai: [AI_V7_TYPES] } };

describe('toolwright/ai-sdk types with AI SDK 7', () => {
  // the compiler over the whole of src/ and ai 7's types: seconds, several times that on a loaded machine
  it('toolsContext type-checks with ToolExecutionContext entries and refuses other values', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-ai7-types-'));
    try {
      const file = path.join(dir, 'usage.ts');
      fs.writeFileSync(file, USAGE(path.join(ROOT, 'src').split(path.sep).join('/')));
      expect(diagnosticsText(diagnosticsOf([file], OPTIONS), dir)).toBe('');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
