import 'reflect-metadata';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Toolkit, type ToolResult } from 'toolwright';
import { AiSdkToolError, toAiSdkTools } from 'toolwright/ai-sdk';
import { WeatherService } from './weather.service.js';

const toolkit = new Toolkit();
toolkit.registration().tool(new WeatherService()).presetParameters({ get_forecast: { apiKey: 'sk-demo-secret' } }).apply();

// The AI SDK's own mock model (no API key): swap in openai('gpt-5') from '@ai-sdk/openai' for a real one.
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
const toolCall = (id: string, input: object) => ({ type: 'tool-call' as const, toolCallId: id, toolName: 'get_forecast', input: JSON.stringify(input) });
const model = new MockLanguageModelV3({
  doGenerate: [
    { content: [toolCall('call_1', { city: 'Paris', days: 10 })], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
    { content: [toolCall('call_2', { city: 'Paris', days: 3 })], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
    { content: [{ type: 'text', text: 'Paris stays mild: 16 to 19 °C over three days.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
  ],
});

const result = await generateText({
  model,
  tools: toAiSdkTools(toolkit.session('chat-1')),
  stopWhen: stepCountIs(5),
  prompt: 'What will the weather be like in Paris?',
});

for (const step of result.steps) {
  for (const part of step.content) {
    // an error result: the model got toolwright's message, the application its ToolResult
    if (part.type === 'tool-error' && AiSdkToolError.is(part.error)) console.log(`✗ ${part.toolName} ${part.error.code}: ${part.error.message.split('\n')[1]}`);
    if (part.type === 'tool-result') console.log(`✓ ${part.toolName}: ${(part.output as ToolResult).forUser}`);
  }
}
const offered = (model.doGenerateCalls[0]?.tools ?? []).map((t) => (t.type === 'function' ? `${t.name}(${Object.keys(t.inputSchema.properties ?? {}).join(', ')})` : t.name));
console.log(`tools offered: ${offered.join(', ')}`);
console.log(`model: ${result.text}`);
