/** The pages of the main window. */
export type Page = 'servers' | 'chat' | 'permissions' | 'secrets' | 'settings';

export const pages: { id: Page; label: string }[] = [
  { id: 'servers', label: 'Servers' },
  { id: 'chat', label: 'Chat' },
  { id: 'permissions', label: 'Permissions' },
  { id: 'secrets', label: 'Secrets' },
  { id: 'settings', label: 'Settings' },
];
