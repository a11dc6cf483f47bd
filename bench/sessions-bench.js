'use strict';
// Session and skill benchmarks: heap per session for 10,000 sessions (idle, toggled,
// under a skill), toggles, shared provider definitions, and a call through a session against the
// same call through the toolkit. Run with --expose-gc for the heap figures (npm run bench does);
// TOOLWRIGHT_DIST points it at another build (default ../dist).
const path = require('node:path');
const { Toolkit, defineSkill } = require(process.env.TOOLWRIGHT_DIST ? path.resolve(process.env.TOOLWRIGHT_DIST) : '../dist/index.js');

const { heapUsed: heap } = require('./heap');
const SESSIONS = 10_000;

function toolkitWithTools() {
  const toolkit = new Toolkit();
  const groups = ['g0', 'g1', 'g2', 'g3'];
  groups.forEach((g, i) => toolkit.createToolGroup(g, `Group ${g}`, i < 2));
  for (let i = 0; i < 20; i++) {
    toolkit.registerTool({
      name: `tool_${i}`,
      description: `Tool ${i}`,
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      behaviour: { group: groups[i % 4] },
      execute: (args) => String(args.city),
    });
  }
  toolkit.registerSkill(defineSkill({ name: 'focus', description: 'Focus', tools: ['tool_0', 'tool_5'] }));
  return toolkit;
}

const rows = [];
const row = (what, value, bar) => rows.push({ what, value, bar });
const perSession = (before, after) => `${Math.round((after - before) / SESSIONS)} B`;

async function main() {
  {
    const toolkit = toolkitWithTools();
    toolkit.getToolSchemas();
    const ids = Array.from({ length: SESSIONS }, (_, i) => `session-${String(i).padStart(6, '0')}`);
    const before = heap();
    const sessions = ids.map((id) => toolkit.session(id));
    const created = heap();
    row('heap per session: created (10,000)', perSession(before, created), 'info');
    for (const session of sessions) session.getToolSchemas();
    const read = heap();
    row('heap per session: + schemas read (shared availability)', perSession(before, read), '≤ 1 KB');
    sessions.forEach((session, i) => session.updateToolGroups([`g${2 + (i % 2)}`], true));
    for (const session of sessions) session.getActiveTools();
    const toggled = heap();
    row('heap per session: + a group toggled, tool list read', perSession(before, toggled), '≤ 2 KB');
    await Promise.all(sessions.map((session) => session.activateSkill('focus')));
    for (const session of sessions) session.toProviderDefs('openai');
    const skilled = heap();
    row('heap per session: + skill active, provider defs read', perSession(before, skilled), '≤ 2 KB');
    for (const session of sessions) session.close();
    sessions.length = 0;
    const closed = heap();
    row('heap per session after closing them all', perSession(before, closed), '≈ 0');
    globalThis.keep = [toolkit, ids];
  }
  {
    const toolkit = toolkitWithTools();
    const sessions = Array.from({ length: SESSIONS }, (_, i) => toolkit.session(`s${i}`));
    const start = process.hrtime.bigint();
    for (const session of sessions) session.toProviderDefs('openai', { strict: true });
    row('provider defs for 10,000 sessions in one state (openai strict)', `${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(2)} ms`, 'info');
    const toggles = process.hrtime.bigint();
    for (let round = 0; round < 10; round++) {
      for (const session of sessions) {
        session.updateToolGroups(['g2'], round % 2 === 0);
        session.getActiveTools();
      }
    }
    row('toggle + read active tools, per session', `${(Number(process.hrtime.bigint() - toggles) / (10 * SESSIONS) / 1000).toFixed(2)} µs`, 'info');
  }
  {
    const toolkit = toolkitWithTools();
    const session = toolkit.session('s');
    const call = { id: 'c', name: 'tool_1', arguments: '{"city":"Paris"}' };
    const best = { toolkit: Infinity, session: Infinity };
    for (let round = 0; round < 6; round++) {
      for (const [name, view] of [['toolkit', toolkit], ['session', session]]) {
        const runs = 50_000;
        const start = process.hrtime.bigint();
        for (let i = 0; i < runs; i++) await view.callTool(call);
        best[name] = Math.min(best[name], Number(process.hrtime.bigint() - start) / runs / 1000);
      }
    }
    row('callTool through the toolkit view', `${best.toolkit.toFixed(2)} µs`, 'info');
    row('callTool through a session view', `${best.session.toFixed(2)} µs`, '≈ toolkit');
  }
  console.table(rows);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
