import { Prompt, Tool, ToolService, type AgentTool, type Toolkit } from '../../src';

/** The group the triggers switch: one tool and one prompt, off at first. */
const SWITCHED = 'conformance-switched';

/** What the group holds: a tool and a prompt that come and go with it. */
@ToolService({ group: SWITCHED })
export class ConformanceSwitchedService {
  /** Listed only while the group is on. */
  @Tool({ name: 'test_switched_tool', description: 'Listed while the switched group is on' })
  switchedTool(): string {
    return 'switched on';
  }

  /** Listed only while the group is on. */
  @Prompt({ name: 'test_switched_prompt', description: 'Listed while the switched group is on' })
  switchedPrompt(): string {
    return 'switched on';
  }
}

/**
 * The diagnostic hooks of the `server-stateless` scenario's list-changed checks
 * (`test_trigger_tool_change`, `test_trigger_prompt_change`): each switches the group
 * {@link ConformanceSwitchedService} is in, which changes both the tool and the prompt list, as an
 * application switching a group would; the open `subscriptions/listen` streams hear it.
 */
export function listChangeTriggers(toolkit: Toolkit): AgentTool[] {
  toolkit.createToolGroup(SWITCHED, 'A tool and a prompt the list-changed triggers switch', false);
  let active = false;
  const trigger = (name: string, what: string): AgentTool => ({
    name,
    description: `Switches a group, changing the ${what} list`,
    behaviour: { group: 'conformance' },
    parameters: { type: 'object', properties: {} },
    execute: () => {
      active = !active;
      toolkit.createToolGroup(SWITCHED, 'A tool and a prompt the list-changed triggers switch', active);
      return `the ${what} list changed`;
    },
  });
  return [trigger('test_trigger_tool_change', 'tool'), trigger('test_trigger_prompt_change', 'prompt')];
}
