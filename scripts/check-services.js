'use strict';
/**
 * Checks that the services the test suites use are listening before they run: Redis on
 * 127.0.0.1:6379 and PostgreSQL on 127.0.0.1:5432 (user postgres, trust authentication, database
 * `test`). Exits 0 when both accept a TCP connection, else 1 with one line per missing service
 * saying how to start it. Nothing is started and nothing is sent; it only connects.
 *
 *   node scripts/check-services.js
 */
const net = require('node:net');

/** The services, where the suites expect them. */
const SERVICES = [
  {
    name: 'Redis',
    host: '127.0.0.1',
    port: 6379,
    start: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
  },
  {
    name: 'PostgreSQL',
    host: '127.0.0.1',
    port: 5432,
    start: "a PostgreSQL server on port 5432 with trust authentication for user postgres and a database named 'test'",
  },
];

/** Resolves with `undefined` when `host:port` accepts a connection within `timeoutMs`, else with why not. */
function reach(host, port, timeoutMs) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (why) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error) => done(error.code ?? error.message));
  });
}

/** The lines that say which services are unreachable (none when all are up). */
async function unreachableServices(services = SERVICES, timeoutMs = 2_000) {
  const answers = await Promise.all(services.map((service) => reach(service.host, service.port, timeoutMs)));
  return services.flatMap((service, i) =>
    answers[i] === undefined ? [] : [`${service.name} is not reachable at ${service.host}:${service.port} (${answers[i]}); the tests need it. Start ${service.start}.`],
  );
}

module.exports = { SERVICES, unreachableServices };

if (require.main === module) {
  unreachableServices().then((problems) => {
    for (const line of problems) process.stderr.write(`check-services: ${line}\n`);
    process.exitCode = problems.length > 0 ? 1 : 0;
  });
}
