/** The pages of the main window. */
export type Page = 'servers' | 'chat';

export const pages: { id: Page; label: string }[] = [
  { id: 'servers', label: 'Servers' },
  { id: 'chat', label: 'Chat' },
];
