import { Injectable } from '@nestjs/common';
import { ScriptedProvider, type LLMProvider } from 'toolwright';

/**
 * The model of each chat. Scripted here (no API key); for a real one return
 * `new OpenAIProvider(new OpenAI())` from 'toolwright/openai' (or AnthropicProvider).
 */
@Injectable()
export class Models {
  for(chat: string): LLMProvider {
    if (chat !== 'chat-1') return new ScriptedProvider([ScriptedProvider.toolCall('wipe_cache', {}), ScriptedProvider.reply('Done.')]);
    return new ScriptedProvider([
      ScriptedProvider.toolCall('get_forecast', { city: 'Paris', days: 10 }),
      ScriptedProvider.toolCall('get_forecast', { city: 'Paris', days: 3 }),
      ScriptedProvider.toolCall('send_report', { text: 'Paris: 16 to 19 °C' }),
      ScriptedProvider.reply('Paris stays mild; I mailed you the forecast.'),
    ]);
  }
}
