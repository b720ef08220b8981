import { describe, expect, it } from 'vitest';
import { placeHash, readPlace } from '../../../src-renderer/lib/place';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('the place kept in the address fragment', () => {
  it('round-trips every page and the open conversation', () => {
    for (const place of [{ page: 'servers' }, { page: 'chat' }, { page: 'secrets' }, { page: 'settings' }, { page: 'chat', conversationId: ID }] as const) {
      expect(readPlace(placeHash(place))).toEqual(place);
    }
    expect(placeHash({ page: 'chat', conversationId: ID })).toBe(`#chat/${ID}`);
  });

  it('falls back to the Servers page for an empty or unknown fragment', () => {
    expect(readPlace('')).toEqual({ page: 'servers' });
    expect(readPlace('#')).toEqual({ page: 'servers' });
    expect(readPlace('#constructor')).toEqual({ page: 'servers' });
    expect(readPlace('#admin/x')).toEqual({ page: 'servers' });
  });

  it('keeps the page but drops a conversation id that is not one of ours', () => {
    expect(readPlace('#chat/../../etc/passwd')).toEqual({ page: 'chat' });
    expect(readPlace('#chat/a_b')).toEqual({ page: 'chat' });
    expect(readPlace(`#chat/${'a'.repeat(65)}`)).toEqual({ page: 'chat' });
    expect(readPlace(`#servers/${ID}`)).toEqual({ page: 'servers' });
  });
});
