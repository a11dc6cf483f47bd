import { existsSync, readFileSync } from 'node:fs';
import { defineConfig, type DefaultTheme } from 'vitepress';
import { sidebar } from './sidebar.mts';

/**
 * The API reference's sidebar, written by TypeDoc (`npm run docs`) into the git-ignored docs/api/;
 * empty before the first `npm run docs`, so that `npm run docs:dev` also starts in a fresh clone.
 */
function apiSidebar(): DefaultTheme.SidebarItem[] {
  const file = new URL('../api/typedoc-sidebar.json', import.meta.url);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DefaultTheme.SidebarItem[]) : [];
}

/** The generated references: the error codes (scripts/error-reference.js) and the API (TypeDoc). */
const reference: DefaultTheme.SidebarItem = {
  text: 'Reference',
  items: [{ text: 'Error codes', link: '/reference/errors' }, { text: 'API', link: '/api/', items: apiSidebar() }],
};

export default defineConfig({
  title: 'toolwright',
  description: 'Methods of dependency-injected TypeScript services as tools a language model can call.',
  outDir: '../site',
  cleanUrls: false,
  lastUpdated: false,
  themeConfig: {
    search: { provider: 'local' },
    sidebar: [...(sidebar as DefaultTheme.SidebarItem[]), reference],
    outline: [2, 3],
  },
});
