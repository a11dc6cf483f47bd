import type { DefaultTheme } from 'vitepress';

/** The site's navigation: the guide, one page per integration, the references. */
export const sidebar: DefaultTheme.Sidebar = [
  { text: 'Guide', items: [{ text: 'Introduction', link: '/' }] },
];
