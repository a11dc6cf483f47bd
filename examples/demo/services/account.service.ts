import { Tool, ToolService } from '../../../src';
import { UserContext } from './user-context';

const plans: Record<string, { plan: string; seats: number }> = {
  'u-42': { plan: 'Team', seats: 12 },
};

@ToolService()
export class AccountService {
  @Tool({ name: 'get_my_account', description: "Show the current user's account: plan and seats", annotations: { readOnly: true } })
  getMyAccount(user: UserContext): { user: string; tenant: string; plan: string; seats: number } {
    const account = plans[user.userId] ?? { plan: 'Free', seats: 1 };
    return { user: user.name, tenant: user.tenant, ...account };
  }
}
