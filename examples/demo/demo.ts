import { ScriptedProvider, ToolExecutionContext, runToolLoop, type LLMProvider, type Message, type ToolEvent } from '../../src';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { AnthropicProvider } from '../../src/providers/anthropic';
import { OpenAIProvider } from '../../src/providers/openai';
import { createSampleToolkit } from './create-toolkit';
import { UserContext, outbox } from './services';

const tty = process.stdout.isTTY;
const paint = (code: number) => (text: string) => (tty ? `\u001b[${code}m${text}\u001b[0m` : text);
const dim = paint(2);
const bold = paint(1);
const green = paint(32);
const red = paint(31);
const cyan = paint(36);
const yellow = paint(33);
const say = (line = '') => process.stdout.write(`${line}\n`);
const short = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text).replace(/\n/g, ' ⏎ ');

/** The scripted model: what a model would answer, turn by turn, so the demo needs no API key. */
function scriptedModel(): ScriptedProvider {
  return new ScriptedProvider([
    // conversation 1: two tools in parallel, a bad call repaired from the error message, an answer
    ScriptedProvider.toolCalls([
      { name: 'get_weather', arguments: '{"city":"Paris"}' },
      { name: 'get_forecast', arguments: { request: { city: 'Tokyo', window: { days: 3 } } } },
    ], 'Let me look up both.'),
    // a bad address, and a guess at the hidden apiKey: rejected, shown with its arguments (the guess redacted)
    ScriptedProvider.toolCall('send_email', { to: 'ada(at)example.com', subject: 'Weather', body: 'Paris: partly cloudy, 18 °C. Tokyo: 3 days around 22 °C.', apiKey: 'sk-guess' }),
    ScriptedProvider.toolCall('send_email', { to: 'ada@example.com', subject: 'Weather', body: 'Paris: partly cloudy, 18 °C. Tokyo: 3 days around 22 °C.' }),
    ScriptedProvider.reply('Paris is partly cloudy at 18 °C; Tokyo stays around 22 °C for 3 days. I emailed you the summary.'),
    // conversation 2: the admin tool is switched off
    ScriptedProvider.toolCall('set_feature_flag', { flag: 'beta-search', enabled: true }),
    ScriptedProvider.reply('I cannot change feature flags: admin tools are disabled for this session.'),
    // conversation 3: after the operator enabled the admin group
    ScriptedProvider.toolCalls([
      { name: 'get_my_account', arguments: {} },
      { name: 'set_feature_flag', arguments: { flag: 'beta-search', enabled: true } },
    ]),
    ScriptedProvider.reply('Done: beta-search is on for your Team plan (12 seats).'),
    // conversation 4: a service typed in plain TypeScript, schemas from the build-time manifest
    ScriptedProvider.toolCall('save_note', { title: 'Pack an umbrella for London', priority: 'urgent' }),
    ScriptedProvider.toolCalls([
      { name: 'save_note', arguments: { title: 'Pack an umbrella for London', priority: 'high', tags: ['travel'] } },
      { name: 'save_note', arguments: { title: 'Water the plants', tags: null } },
    ]),
    ScriptedProvider.toolCall('list_notes', {}),
    ScriptedProvider.reply('Saved two notes; the umbrella one is marked high priority.'),
  ]);
}

/** A real model instead of the script: `npm start -- --openai` or `npm start -- --anthropic`. */
function realModel(vendor: 'openai' | 'anthropic'): { provider: LLMProvider; model: string } {
  if (vendor === 'openai') {
    if (!process.env.OPENAI_API_KEY) throw new Error('--openai needs OPENAI_API_KEY in the environment');
    return { provider: new OpenAIProvider(new OpenAI()), model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini' };
  }
  if (!process.env.ANTHROPIC_API_KEY) throw new Error('--anthropic needs ANTHROPIC_API_KEY in the environment');
  return { provider: new AnthropicProvider(new Anthropic()), model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5' };
}

function printEvent(event: ToolEvent): void {
  switch (event.type) {
    case 'call_started':
      // every call starts here, a rejected one included (malformed JSON comes as rawArguments)
      say(`  ${cyan('→ call')} ${bold(event.tool)} ${dim(event.rawArguments ?? JSON.stringify(event.arguments))}`);
      break;
    case 'call_progress':
      say(`    ${dim(`… ${event.tool}: ${event.progress.message ?? ''} ${event.progress.progress ?? ''}/${event.progress.total ?? ''}`)}`);
      break;
    case 'call_succeeded':
      say(`  ${green('✓ result')} ${event.tool} ${dim(`(${event.durationMs} ms)`)}: ${short(event.result.forLLM)}`);
      if (event.result.forUser) say(`    ${yellow('user sees:')} ${event.result.forUser}`);
      break;
    case 'call_failed':
    case 'call_timed_out':
    case 'call_aborted': {
      const message = event.type === 'call_failed' ? `${event.error.code}: ${event.error.message}` : event.type;
      say(`  ${red('✗ error')} ${event.tool}: ${short(message, 300)}`);
      break;
    }
    case 'groups_changed':
      say(yellow(`  ⚙ groups now active: ${event.activeGroups.join(', ')}`));
      break;
    default:
      break;
  }
}

async function conversation(title: string, prompt: string, run: (messages: Message[]) => Promise<{ content: string; iterations: number }>): Promise<void> {
  say();
  say(bold(`━━ ${title}`));
  say(`${bold('user:')} ${prompt}`);
  const { content, iterations } = await run([
    { role: 'system', content: 'You are a helpful assistant. Use the tools.' },
    { role: 'user', content: prompt },
  ]);
  say(`${bold('assistant:')} ${content} ${dim(`(${iterations} model call(s))`)}`);
}

async function main(): Promise<void> {
  const vendor = process.argv.includes('--openai') ? 'openai' : process.argv.includes('--anthropic') ? 'anthropic' : undefined;
  const { provider, model } = vendor ? realModel(vendor) : { provider: scriptedModel(), model: 'scripted' };

  const toolkit = createSampleToolkit();
  const session = toolkit.session('ada-session');
  const ada = ToolExecutionContext.builder().register(new UserContext('u-42', 'Ada', 'acme')).build();
  const subscription = toolkit.events$.subscribe(printEvent);

  say(bold('toolwright demo') + dim(` — model: ${vendor ? `${vendor} ${model}` : 'scripted (no API key needed)'}`));
  say(dim(`tools offered: ${session.getToolSchemas().map((t) => t.name).join(', ')}`));
  say(dim(`send_email parameters the model sees: ${Object.keys(session.getToolSchemas().find((t) => t.name === 'send_email')!.parameters.properties).join(', ')} (apiKey is a hidden preset)`));

  const loop = (messages: Message[]) =>
    runToolLoop(
      {
        provider,
        model,
        toolkit: session,
        context: ada,
        maxIterations: 6,
        onResponse: (response) => {
          if (response.toolCalls.length && response.content) say(`${dim('model:')} ${response.content}`);
        },
      },
      messages,
    );

  await conversation('1 · parallel tools, a DTO, a rejected call and its repair, a hidden API key', "What's the weather in Paris, and a 3-day forecast for Tokyo? Email me the summary at ada@example.com.", loop);
  say(dim(`  outbox: ${JSON.stringify(outbox)}`));

  await conversation('2 · a tool in a disabled group', 'Turn on beta-search for our tenant.', loop);

  say();
  say(bold('━━ the operator enables the admin group for this session only'));
  session.updateToolGroups(['admin'], true);
  say(dim(`  session tools: ${session.getActiveTools().map((t) => t.name).join(', ')}`));
  say(dim(`  other sessions still see: ${toolkit.session('someone-else').getActiveTools().map((t) => t.name).join(', ')}`));

  await conversation('3 · the same request, now allowed', 'Turn on beta-search for our tenant, and tell me my plan.', loop);
  const note = session.getToolSchemas().find((t) => t.name === 'save_note')!;
  say();
  say(dim(`save_note schema from the manifest: ${JSON.stringify(note.parameters.properties)}`));
  await conversation('4 · plain TypeScript types via the build-time manifest', 'Remind me to pack an umbrella for London, and to water the plants.', loop);
  subscription.unsubscribe();
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});
