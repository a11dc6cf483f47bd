'use strict';
// The tool the MCP benchmarks call, as an AgentTool: the same for every contender.

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

module.exports = { answer, weatherTool };
