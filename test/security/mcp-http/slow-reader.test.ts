import { request, type IncomingMessage } from 'node:http';
import { Toolkit } from '../../../src';
import { serveMcpHttp } from '../../../src/mcp';
import { Closer, eventually } from '../../support/mcp';
import { POST_HEADERS, messagesOf, rawSession, toolsCall } from '../../support/mcp-http';

/**
 * Security item 7: a client that does not read its response cannot make the server queue
 * progress notifications without bound. The tool below emits 20,000 notifications of 8 KB
 * (160 MB) while the client reads nothing; the server may only have handed the socket what its
 * buffers hold (a few MB) plus a bounded queue, coalesced to the latest progress: when the
 * client finally reads, it gets far fewer notifications, strictly increasing, ending with the
 * last one, then the result.
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

const EMITS = 20_000;
const PADDING = 'x'.repeat(8_192);

test('a slow reader gets coalesced progress: bounded, strictly increasing, the latest kept', async () => {
  let finished = false;
  const toolkit = new Toolkit();
  toolkit.registerTool({
    name: 'chatty',
    description: 'Emits many large progress notifications',
    parameters: { type: 'object', properties: {} },
    execute: async (_args, ctx) => {
      for (let i = 1; i <= EMITS; i++) {
        ctx.emit({ progress: i, total: EMITS, message: `${i} ${PADDING}` });
        if (i % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      finished = true;
      return 'done';
    },
  });
  const http = closer.add(await serveMcpHttp(toolkit, { name: 'slow', version: '0' }));
  const sessionId = await rawSession(http.url);

  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(http.url, { method: 'POST', headers: { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } });
    req.on('response', (res) => {
      res.pause(); // read nothing while the tool runs
      resolve(res);
    });
    req.on('error', reject);
    req.end(toolsCall(2, 'chatty', {}, 'tok'));
  });
  await eventually(() => finished, 15_000);

  response.setEncoding('utf8');
  let text = '';
  response.on('data', (chunk: string) => (text += chunk));
  response.resume();
  await new Promise((resolve) => response.on('end', resolve));

  const messages = messagesOf(text);
  const progress = messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params!.progress as number);
  expect(progress.length).toBeLessThan(EMITS / 2);
  expect(progress[progress.length - 1]).toBe(EMITS);
  for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
  expect(messages[messages.length - 1].result).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
});
