import net from 'node:net';

/** scripts/check-services.js, which .ci/run calls first: a service is up when its port accepts a connection. */
interface Service {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  readonly start: string;
}
const { SERVICES, unreachableServices } = require('../../scripts/check-services') as {
  SERVICES: readonly Service[];
  unreachableServices(services?: readonly Service[], timeoutMs?: number): Promise<string[]>;
};

/** A server on a port of the system's choosing, listening until `close()`. */
async function listening(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('checks Redis on 127.0.0.1:6379 and PostgreSQL on 127.0.0.1:5432, which the suites use', () => {
  expect(SERVICES.map(({ name, host, port }) => [name, host, port])).toEqual([
    ['Redis', '127.0.0.1', 6379],
    ['PostgreSQL', '127.0.0.1', 5432],
  ]);
});

test('a listening port passes; a closed one is named with the reason and how to start the service', async () => {
  const up = await listening();
  const down = await listening();
  await down.close();
  try {
    const problems = await unreachableServices([
      { name: 'Up', host: '127.0.0.1', port: up.port, start: 'nothing' },
      { name: 'Down', host: '127.0.0.1', port: down.port, start: 'it with `down --start`' },
    ]);
    expect(problems).toEqual([`Down is not reachable at 127.0.0.1:${down.port} (ECONNREFUSED); the tests need it. Start it with \`down --start\`.`]);
  } finally {
    await up.close();
  }
});
