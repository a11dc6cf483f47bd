import 'reflect-metadata';
import { defineSkill } from '../../../src';
import { setupToolkit } from '../../toolkit/fixtures';
import { call } from '../../support/toolkit';

/**
 * Attack: the model activates a scoping skill whose definition grants `admin` for its own scope
 * (`summarise` only), then invokes an executable skill that has no grant and whose step calls
 * `delete_user`. The scoping skill's grant leaked into the run: the admin tool ran, although the
 * model could not call it directly and the executable skill alone could not reach it either.
 */
describe('attack: an active scoping skill’s grantGroups do not reach other skills’ runs', () => {
  it('invoke_skill of an ungranted workflow while a granting scoping skill is active: TOOL_DISABLED, nothing deleted', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(defineSkill({ name: 'ops', description: 'Operations', tools: ['summarise'], grantGroups: ['admin'] }));
    toolkit.registerSkill(defineSkill({ name: 'wipe', description: 'Wipe a user', tools: [], steps: [{ tool: 'delete_user', arguments: { id: 'u1' } }] }));
    const session = toolkit.session('attacker');
    await call(session, 'invoke_skill', { name: 'ops' });
    expect(session.activeSkill).toBe('ops');
    expect((await call(session, 'delete_user', { id: 'u0' })).error?.code).toBe('TOOL_DISABLED');
    const viaRun = await call(session, 'invoke_skill', { name: 'wipe' });
    expect(viaRun.error?.code).toBe('SKILL_FAILED');
    expect(viaRun.forLLM).toContain("Tool 'delete_user' is disabled: its group 'admin' is not active");
    expect(admin.deleted).toEqual([]);
  });

  it('the run’s own grant and groups switched on in the view still count', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(defineSkill({ name: 'ops', description: 'Operations', tools: ['summarise'], grantGroups: ['admin'] }));
    toolkit.registerSkill(defineSkill({ name: 'wipe', description: 'Wipe', tools: [], grantGroups: ['admin'], steps: [{ tool: 'delete_user', arguments: { id: 'u1' } }] }));
    const session = toolkit.session('ops-user');
    await call(session, 'invoke_skill', { name: 'ops' });
    expect((await call(session, 'invoke_skill', { name: 'wipe' })).forLLM).toBe('deleted u1');
    expect(admin.deleted).toEqual(['u1']);
  });
});
