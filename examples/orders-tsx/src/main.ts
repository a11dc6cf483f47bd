import { Container } from 'inversify';
import { runToolLoop, ScriptedProvider, ToolExecutionContext, Toolkit } from 'toolwright';
import { OrdersService } from './orders.service.js';
import { manifest } from './tools.manifest.js';
import { UserContext } from './user-context.js';

// tsx emits no decorator metadata: the manifest module (npm run build) names the classes.
const toolkit = new Toolkit({ container: new Container(), manifest, context: ToolExecutionContext.of(new UserContext('Ada')) });
toolkit.registerTool(OrdersService);

const model = new ScriptedProvider([
  // 'a12' passes the JSON Schema (a case-insensitive pattern has no JSON Schema form); class-validator
  // catches it, and the model repairs the call
  ScriptedProvider.toolCall('place_order', { order: { sku: 'a12', qty: 2 }, deliverOn: '2026-12-01T09:00:00Z' }),
  ScriptedProvider.toolCall('place_order', { order: { sku: 'a-12', qty: 2 }, deliverOn: '2026-12-01T09:00:00Z' }),
  ScriptedProvider.reply('Ordered two A-12 for December 1st.'),
]);
const result = await runToolLoop({ provider: model, model: 'scripted', toolkit }, [{ role: 'user', content: 'Order two a-12 for Dec 1.' }]);
for (const message of result.messages) if (message.role === 'tool') console.log(`tool: ${message.content.split('\n').slice(0, 2).join(' ')}`);
console.log(`model: ${result.content}`);
