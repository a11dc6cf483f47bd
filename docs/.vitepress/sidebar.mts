import type { DefaultTheme } from 'vitepress';

/** The site's navigation, in reading order: the guide, the integrations, MCP, the references, contributing. */
export const sidebar: DefaultTheme.Sidebar = [
  {
    text: 'Guide',
    items: [
      { text: 'Introduction', link: '/' },
      { text: 'Getting started', link: '/guide/getting-started' },
      { text: 'Describing parameters', link: '/guide/parameters' },
      { text: 'Decorator reference', link: '/guide/decorators' },
      { text: 'Toolchains', link: '/guide/toolchains' },
      { text: 'Context, DI and presets', link: '/guide/context-and-presets' },
      { text: 'The toolkit and the executor', link: '/guide/toolkit' },
      { text: 'Groups, skills and sessions', link: '/guide/skills-and-sessions' },
      { text: 'Rich tool results', link: '/guide/results' },
      { text: 'Resources and prompts', link: '/guide/resources-and-prompts' },
      { text: 'Authorization', link: '/guide/authorization' },
      { text: 'Hooks', link: '/guide/hooks' },
      { text: 'Human approval', link: '/guide/approval' },
      { text: 'Observability', link: '/guide/observability' },
      { text: 'Testing your agent', link: '/guide/testing' },
      { text: 'Security', link: '/guide/security' },
      { text: 'Troubleshooting', link: '/guide/troubleshooting' },
    ],
  },
  {
    text: 'Integrations',
    items: [
      { text: 'OpenAI', link: '/integrations/openai' },
      { text: 'Anthropic', link: '/integrations/anthropic' },
      { text: 'Gemini', link: '/integrations/gemini' },
      { text: 'AI SDK', link: '/integrations/ai-sdk' },
      { text: 'LangChain', link: '/integrations/langchain' },
      { text: 'OpenAI Agents SDK', link: '/integrations/openai-agents' },
      { text: 'NestJS', link: '/integrations/nestjs' },
      { text: 'Worker fleets (BullMQ)', link: '/integrations/bullmq' },
    ],
  },
  {
    text: 'MCP',
    items: [
      { text: 'MCP server', link: '/integrations/mcp/' },
      { text: 'Logging, sampling, elicitation', link: '/integrations/mcp/client-features' },
      { text: 'Tasks', link: '/integrations/mcp/tasks' },
      { text: "Importing a server's tools", link: '/integrations/mcp/import' },
      { text: 'Fleets (Redis)', link: '/integrations/mcp/fleets' },
      { text: 'Conformance', link: '/integrations/mcp/conformance' },
      { text: 'SDK versions', link: '/integrations/mcp/sdk-versions' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'Error codes', link: '/reference/errors' },
      { text: 'API reference', link: '/api/' },
      { text: 'Performance', link: '/performance' },
    ],
  },
  {
    text: 'Contributing',
    items: [{ text: 'Architecture', link: '/contributing/architecture' }],
  },
];
