import { defineConfig } from 'vitepress';
import { sidebar } from './sidebar.mts';

export default defineConfig({
  title: 'toolwright',
  description: 'Methods of dependency-injected TypeScript services as tools a language model can call.',
  outDir: '../site',
  cleanUrls: false,
  lastUpdated: false,
  themeConfig: {
    search: { provider: 'local' },
    sidebar,
    outline: [2, 3],
  },
});
