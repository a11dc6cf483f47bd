import 'reflect-metadata';
import { ApprovalManager, isPendingApprovalResult } from '../../../src';
import { setupToolkit } from '../../toolkit/fixtures';
import { call } from '../../support/toolkit';

/**
 * Attack: a call held for approval in a session; the session is closed (the user logged out) or
 * expires; a person approves the queued request later. The approval resumed through the closed
 * session's captured view and the admin tool ran for a session that no longer exists.
 */
function held() {
  const { toolkit, admin } = setupToolkit();
  const approvals = new ApprovalManager({ tools: ['delete_user'] });
  toolkit.use(approvals.hook);
  return { toolkit, admin, approvals };
}

describe('attack: an approval does not resume in a closed session', () => {
  it('session closed before approve(): the approval is withdrawn with the session, nothing runs', async () => {
    const { toolkit, admin, approvals } = held();
    const session = toolkit.session('s-logout');
    session.updateToolGroups(['admin'], true);
    expect(isPendingApprovalResult(await call(session, 'delete_user', { id: 'u1' }))).toBe(true);
    const [pending] = approvals.pending();
    session.close();
    expect(approvals.pending()).toEqual([]);
    await expect(approvals.approve(pending.id)).rejects.toMatchObject({ code: 'APPROVAL_NOT_PENDING' });
    expect(admin.deleted).toEqual([]);
  });

  it('session expired (TTL) before approve(), never looked up since: SESSION_CLOSED, nothing runs', async () => {
    // the clock is virtual: a loaded machine cannot expire the session before the call is held
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const { toolkit, admin, approvals } = held();
      const session = toolkit.session('s-expiring', { ttlMs: 1_000 });
      session.updateToolGroups(['admin'], true);
      expect(isPendingApprovalResult(await call(session, 'delete_user', { id: 'u1' }))).toBe(true);
      jest.setSystemTime(1_000_000 + 1_001);
      const [pending] = approvals.pending();
      const result = await approvals.approve(pending.id);
      expect(result.error?.code).toBe('SESSION_CLOSED');
      expect(admin.deleted).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('an open session still resumes its approval', async () => {
    const { toolkit, admin, approvals } = held();
    const session = toolkit.session('s-open');
    session.updateToolGroups(['admin'], true);
    await call(session, 'delete_user', { id: 'u1' });
    const [pending] = approvals.pending();
    expect((await approvals.approve(pending.id)).forLLM).toBe('deleted u1');
    expect(admin.deleted).toEqual(['u1']);
  });
});
