import { Body, Controller, Headers, Param, Post } from '@nestjs/common';
import { runToolLoop, Toolkit, ToolExecutionContext } from 'toolwright';
import { ConfigService } from './config.js';
import { Models } from './model.js';
import { UserContext } from './tools.js';

/** What one chat turn answers: the model's reply and each tool call with its outcome. */
export interface ChatReply {
  readonly offered: string[];
  readonly calls: string[];
  readonly reply: string;
}

@Controller('chats')
export class ChatController {
  constructor(
    private readonly toolkit: Toolkit,
    private readonly models: Models,
    private readonly config: ConfigService,
  ) {}

  @Post(':chat/messages')
  async message(@Param('chat') chat: string, @Headers('x-user') user: string, @Body() body: { text: string }): Promise<ChatReply> {
    // one session per chat: its own groups; operators get the admin tools in theirs
    const session = this.toolkit.session(chat, { ttlMs: 30 * 60_000 });
    if (this.config.get('OPERATORS').split(',').includes(user)) session.updateToolGroups(['admin'], true);
    const calls: string[] = [];
    const result = await runToolLoop(
      {
        provider: this.models.for(chat),
        model: 'scripted',
        toolkit: session,
        // per request: who is asking (from your auth guard in a real app)
        context: ToolExecutionContext.of(new UserContext(user, `${user}@example.com`)),
        onToolResult: (r, call) => calls.push(r.isError ? `✗ ${call.name} ${r.error?.code}: ${r.forLLM.split('\n')[1] ?? r.forLLM}` : `✓ ${call.name}: ${r.forLLM}`),
      },
      [{ role: 'user', content: body.text }],
    );
    const offered = session.getToolSchemas().map((t) => `${t.name}(${Object.keys(t.parameters.properties ?? {}).join(', ')})`);
    return { offered, calls, reply: result.content };
  }
}
