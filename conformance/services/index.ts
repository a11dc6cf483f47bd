import type { ToolTarget } from '../../src';
import { ConformanceClientRequestsService } from './client-requests';
import { ConformanceContentService } from './content';
import { ConformanceInputRequiredService } from './input-required';
import { ConformanceSwitchedService } from './list-changes';
import { ConformancePromptsService } from './prompts';
import { ConformanceResourcesService } from './resources';
import { ConformanceSseService } from './sse';
import { ASK_NAME_BEFORE_TASK, TASK_FIXTURES } from './tasks';
import { ConformanceToolsService, customHeaderTool, jsonSchema2020Tool } from './tools';

/**
 * Everything the conformance server registers besides the sample services, in the group
 * `conformance`: one file per area under `conformance/services/`, one line each here.
 */
export const CONFORMANCE_SERVICES: readonly ToolTarget[] = [
  ConformanceToolsService,
  jsonSchema2020Tool,
  customHeaderTool,
  ConformanceContentService,
  ConformanceResourcesService,
  ConformancePromptsService,
  ConformanceClientRequestsService,
  ConformanceInputRequiredService,
  ConformanceSseService,
  ConformanceSwitchedService,
  ...TASK_FIXTURES,
];

export { listChangeTriggers } from './list-changes';

/** The hooks the conformance server adds to the toolkit. */
export const CONFORMANCE_HOOKS = [ASK_NAME_BEFORE_TASK] as const;
