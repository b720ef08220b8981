import { pages, type Page } from './pages';

/** Where the person is: the page, and on the chat page the open conversation. */
export interface Place {
  page: Page;
  conversationId?: string;
}

/** The conversation store's id rule (letters, digits, "-"); anything else in the address is ignored, never passed on. */
const CONVERSATION_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The place kept in the address's fragment (`#chat/<id>`), so a reload — or Electron's window coming
 * back — returns to the open conversation instead of the Servers page. An unknown or malformed
 * fragment means the Servers page.
 */
export function readPlace(hash: string): Place {
  const [name, id] = hash.replace(/^#/, '').split('/', 2);
  const page = pages.find((p) => p.id === name)?.id;
  if (page === undefined) return { page: 'servers' };
  if (page === 'chat' && id !== undefined && CONVERSATION_ID.test(id)) return { page, conversationId: id };
  return { page };
}

export function placeHash(place: Place): string {
  return place.page === 'chat' && place.conversationId !== undefined ? `#chat/${place.conversationId}` : `#${place.page}`;
}
