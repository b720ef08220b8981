/** The pages of the main window. */
export type Page = 'servers';

export const pages: { id: Page; label: string }[] = [{ id: 'servers', label: 'Servers' }];
