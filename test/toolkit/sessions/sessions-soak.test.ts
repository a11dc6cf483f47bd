import 'reflect-metadata';
import { Container } from 'inversify';
import { defineSkill, Toolkit, type AgentTool, type ToolCall, type ToolEvent, type ToolView } from '../../../src';
import { names } from '../../support/toolkit';

// The bar: 1,000 concurrent sessions toggling groups and skills, zero cross-talk.

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GROUPS = ['g0', 'g1', 'g2', 'g3'];
const SCOPES: Readonly<Record<string, readonly string[]>> = { sk0: ['g0_a', 'g2_b'], sk1: ['g1_a', 'free'], sk2: ['g3_a', 'g3_b', 'g0_b'] };
const tick = (random: () => number): Promise<void> =>
  random() < 0.5 ? new Promise((resolve) => setImmediate(resolve)) : Promise.resolve();

interface Model {
  base: Set<string>;
  skill: string | undefined;
  layer: Set<string>;
}

describe('1,000 concurrent sessions', () => {
  it('toggle groups and skills at once (awaits, parallel batches, meta tools) with zero cross-talk, checked per session', async () => {
    const toolkit = new Toolkit({ container: new Container(), maxConcurrency: 4, equipToolGroups: true });
    GROUPS.forEach((g, i) => toolkit.createToolGroup(g, `Group ${g}`, i === 0));
    const toolOrder: string[] = [];
    const groupOf = new Map<string, string | undefined>();
    const tool = (name: string, group: string | undefined): AgentTool => ({
      name,
      description: `Tool ${name}`,
      parameters: { type: 'object', properties: {} },
      ...(group !== undefined ? { behaviour: { group } } : {}),
      execute: async (_args, ctx) => {
        await new Promise((resolve) => setImmediate(resolve));
        return `${name}@${ctx.sessionId}`;
      },
    });
    for (const g of GROUPS) {
      for (const suffix of ['a', 'b']) {
        toolkit.registerTool(tool(`${g}_${suffix}`, g));
        toolOrder.push(`${g}_${suffix}`);
        groupOf.set(`${g}_${suffix}`, g);
      }
    }
    toolkit.registerTool(tool('free', undefined));
    toolOrder.push('free');
    const hookLog = new Map<string, string[]>();
    const hook = (label: string) => async (view: ToolView) => {
      await new Promise((resolve) => setImmediate(resolve));
      hookLog.get(view.sessionId!)!.push(label);
    };
    for (const [name, tools] of Object.entries(SCOPES)) {
      toolkit.registerSkill(defineSkill({ name, description: `Skill ${name}`, tools, onActivate: hook(`+${name}`), onDeactivate: hook(`-${name}`) }));
    }
    toolkit.registerSkill(
      defineSkill({
        name: 'probe',
        description: 'Runs g3_a',
        tools: ['g3_a'],
        grantGroups: ['g3'],
        run: async (_p, ctx) => `${ctx.sessionId}:${(await ctx.callTool('g3_a')).forLLM}`,
      }),
    );
    const globals = ['equip_tool_groups', 'list_skills', 'invoke_skill'];
    const allOrder = [...globals.slice(0, 1), ...toolOrder, ...globals.slice(1)];
    expect(names(toolkit.getActiveTools())).toEqual(['equip_tool_groups', 'g0_a', 'g0_b', 'free', 'list_skills', 'invoke_skill']);

    const expected = (m: Model): string[] =>
      allOrder.filter((name) => {
        if (globals.includes(name)) return true;
        const group = groupOf.get(name);
        // a skill selects among the permitted tools: its scope counts only where the groups allow it
        const permitted = group === undefined || m.base.has(group) || m.layer.has(group);
        if (m.skill !== undefined) return (SCOPES[m.skill].includes(name) && permitted) || (group !== undefined && m.layer.has(group));
        return group === undefined || m.base.has(group);
      });

    const events: ToolEvent[] = [];
    const subscription = toolkit.events$.subscribe((e) => events.push(e));
    const failures: string[] = [];
    const counts = { calls: 0, toggles: 0, skills: 0 };

    const runSession = async (index: number): Promise<void> => {
      const id = `s${index}`;
      const random = prng(index + 1);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
      const session = toolkit.session(id);
      hookLog.set(id, []);
      const model: Model = { base: new Set(['g0']), skill: undefined, layer: new Set() };
      const expectedHooks: string[] = [];
      const skillsSeen: (string | undefined)[] = [];
      const expectedSkills: (string | undefined)[] = [undefined];
      const sub = session.activeSkill$.subscribe((s) => skillsSeen.push(s));
      let n = 0;
      const check = (where: string): void => {
        const actual = names(session.getActiveTools());
        const want = expected(model);
        if (actual.join() !== want.join()) failures.push(`${id} ${where}: tools ${actual.join()} != ${want.join()}`);
        if (session.activeSkill !== model.skill) failures.push(`${id} ${where}: skill ${session.activeSkill} != ${model.skill}`);
        const groups = [...(model.skill !== undefined ? model.layer : model.base)].sort().join();
        if (session.getActiveGroups().sort().join() !== groups) failures.push(`${id} ${where}: groups ${session.getActiveGroups().join()} != ${groups}`);
      };
      const setSkill = (next: string | undefined): void => {
        if (next === model.skill) return;
        if (model.skill !== undefined) expectedHooks.push(`-${model.skill}`);
        if (next !== undefined) expectedHooks.push(`+${next}`);
        model.skill = next;
        model.layer = new Set();
        expectedSkills.push(next);
      };
      for (let op = 0; op < 16; op++) {
        const roll = random();
        const where = `op ${op}`;
        if (roll < 0.3) {
          const group = pick(GROUPS);
          const on = random() < 0.5;
          const target = model.skill !== undefined ? model.layer : model.base;
          if (on) target.add(group);
          else {
            // switching a group off revokes it for the session, during a skill too
            model.layer.delete(group);
            model.base.delete(group);
          }
          counts.toggles++;
          if (random() < 0.5) session.updateToolGroups([group], on);
          else {
            const result = await session.callTool({ id: `${id}-${++n}`, name: 'equip_tool_groups', arguments: on ? { add: [group] } : { remove: [group] } });
            if (result.isError) failures.push(`${id} ${where}: equip failed ${result.forLLM}`);
          }
        } else if (roll < 0.5) {
          const skill = pick(Object.keys(SCOPES));
          setSkill(skill);
          counts.skills++;
          if (random() < 0.5) await session.activateSkill(skill);
          else {
            const result = await session.callTool({ id: `${id}-${++n}`, name: 'invoke_skill', arguments: { name: skill } });
            if (!result.forLLM.startsWith(`Skill '${skill}' is active.`)) failures.push(`${id} ${where}: invoke ${result.forLLM}`);
          }
        } else if (roll < 0.6) {
          setSkill(undefined);
          counts.skills++;
          await session.deactivateSkill();
        } else if (roll < 0.65) {
          const result = await session.callTool({ id: `${id}-${++n}`, name: 'invoke_skill', arguments: { name: 'probe' } });
          counts.calls += 2;
          if (result.forLLM !== `${id}:g3_a@${id}`) failures.push(`${id} ${where}: probe ${result.forLLM}`);
        } else {
          const want = expected(model);
          const calls: ToolCall[] = Array.from({ length: 2 + Math.floor(random() * 5) }, () => ({
            id: `${id}-${++n}`,
            name: pick([...toolOrder]),
            arguments: {},
          }));
          const pending = session.callTools(calls);
          counts.calls += calls.length;
          const results = await pending;
          results.forEach((result, i) => {
            const name = calls[i].name;
            const ok = want.includes(name) ? result.forLLM === `${name}@${id}` : result.error?.code === 'TOOL_DISABLED';
            if (!ok || result.toolCallId !== calls[i].id) failures.push(`${id} ${where}: ${name} -> ${result.forLLM}`);
          });
        }
        check(where);
        await tick(random);
        check(`${where} after await`);
      }
      await session.deactivateSkill().catch(() => undefined);
      setSkill(undefined);
      if (hookLog.get(id)!.join() !== expectedHooks.join()) failures.push(`${id}: hooks ${hookLog.get(id)!.join()} != ${expectedHooks.join()}`);
      if (skillsSeen.join() !== expectedSkills.join()) failures.push(`${id}: activeSkill$ ${skillsSeen.join()} != ${expectedSkills.join()}`);
      sub.unsubscribe();
    };

    await Promise.all(Array.from({ length: 1_000 }, (_, i) => runSession(i)));
    subscription.unsubscribe();

    expect(failures.slice(0, 10)).toEqual([]);
    // every event belongs to the session whose calls or toggles caused it
    const misplaced = events.filter((e) => {
      if (!('sessionId' in e) || e.sessionId === undefined) return e.type !== 'tools_changed' && e.type !== 'groups_changed';
      return 'callId' in e && !(e.callId as string).startsWith(`${e.sessionId}-`);
    });
    expect(misplaced.slice(0, 5)).toEqual([]);
    expect(toolkit.getSessionIds()).toHaveLength(1_000);
    expect(toolkit.activeSkill).toBeUndefined();
    expect(toolkit.getActiveGroups()).toEqual(['g0']);
    // it really was concurrent and busy
    expect(counts.calls).toBeGreaterThan(20_000);
    expect(counts.toggles).toBeGreaterThan(4_000);
    expect(counts.skills).toBeGreaterThan(4_000);
  });
});
