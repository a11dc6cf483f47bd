import { Tool, ToolParam, ToolService } from '../../../src';

@ToolService({ group: 'admin' })
export class AdminService {
  private readonly flags = new Map<string, boolean>([['beta-search', false]]);

  @Tool({
    name: 'set_feature_flag',
    description: 'Turn a feature flag on or off for the whole tenant',
    annotations: { destructive: false, idempotent: true },
    risk: 'high',
  })
  setFeatureFlag(
    @ToolParam({ name: 'flag', description: 'Flag name', enum: ['beta-search', 'dark-mode'] }) flag: string,
    @ToolParam({ name: 'enabled', description: 'On or off' }) enabled: boolean,
  ): string {
    this.flags.set(flag, enabled);
    return `Feature flag '${flag}' is now ${enabled ? 'on' : 'off'}.`;
  }
}
