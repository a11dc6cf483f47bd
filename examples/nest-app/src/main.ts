import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import type { ChatReply } from './chat.controller.js';

const app = await NestFactory.create(AppModule, { logger: false, forceCloseConnections: true });
await app.listen(0, '127.0.0.1');
const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');

async function say(chat: string, user: string, text: string): Promise<ChatReply> {
  const response = await fetch(`${base}/chats/${chat}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify({ text }),
  });
  return (await response.json()) as ChatReply;
}

const ana = await say('chat-1', 'ana', 'Weather in Paris? Mail it to me.');
console.log(`chat-1 (ana) is offered: ${ana.offered.join(', ')}`);
for (const line of ana.calls) console.log(line);
console.log(`model: ${ana.reply}`);
for (const [chat, user] of [['chat-2', 'bo'], ['chat-3', 'ops']] as const) {
  const turn = await say(chat, user, 'Wipe the cache.');
  console.log(`${chat} (${user}): ${turn.calls.join('; ')}`);
}
await app.close();
