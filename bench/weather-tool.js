'use strict';
// The tool the MCP benchmarks call (an AgentTool, the same for every contender) and how they time its calls.

/** The tool's answer. */
const answer = (city, days) => `Sunny in ${city} for ${days ?? 1} day(s)`;

/** `get_weather` as a plain AgentTool (raw JSON Schema). */
const weatherTool = {
  name: 'get_weather',
  description: 'Get the weather',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer', minimum: 1, maximum: 14 } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: (args) => answer(args.city, args.days),
};

/** The arguments of every timed call. */
const ARGS = { city: 'Paris', days: 3 };

/** µs per call of `client.callTool`: wall clock, and CPU time of this process (steadier on a busy machine). */
async function perCall(client, calls) {
  const params = { name: 'get_weather', arguments: ARGS };
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await client.callTool(params);
  const wall = Number(process.hrtime.bigint() - start) / 1000 / calls;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / calls };
}

/** The median of `values`. */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Checks each `[name, client]` answers right, warms it up, then times it in short interleaved rounds,
 * rotating the order so that drift (GC, CPU frequency, neighbours) hits every contender alike;
 * resolves with each name's median µs per call (wall and CPU).
 */
async function interleaved(contenders, { warmup, rounds, calls }) {
  for (const [name, client] of contenders) {
    const check = await client.callTool({ name: 'get_weather', arguments: ARGS });
    if (check.isError || check.content[0].text !== answer('Paris', 3)) throw new Error(`${name} answered ${JSON.stringify(check)}`);
    await perCall(client, warmup);
  }
  const samples = new Map(contenders.map(([name]) => [name, { wall: [], cpu: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const [name, client] = contenders[(round + k) % contenders.length];
      const { wall, cpu } = await perCall(client, calls);
      samples.get(name).wall.push(wall);
      samples.get(name).cpu.push(cpu);
    }
  }
  return new Map([...samples].map(([name, s]) => [name, { wall: median(s.wall), cpu: median(s.cpu) }]));
}

module.exports = { ARGS, answer, interleaved, weatherTool };
