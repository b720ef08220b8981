import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolCallCard } from '../../../src-preload/contract/chat';
import { buildRows, UNANSWERED, callStateLabel, emptyTurn, failedRunHeading, formatElapsed, progressFraction, withCard, withDelta, withState } from '../../../src-renderer/lib/chat/chat-rows';

const card = (callId: string, state: ToolCallCard['state'], extra: Partial<ToolCallCard> = {}): ToolCallCard => ({
  conversationId: 'c1',
  callId,
  name: 'everything__echo',
  server: 'everything',
  tool: 'echo',
  args: { message: 'hi' },
  state,
  ...extra,
});

describe('live turn reducers', () => {
  it('joins deltas into one message until a tool call, then starts the next', () => {
    let turn = emptyTurn('question');
    turn = withDelta(turn, 'Let me ');
    turn = withDelta(turn, 'check.');
    turn = withCard(turn, card('t1', 'awaiting_approval'));
    turn = withCard(turn, card('t1', 'running'));
    turn = withDelta(turn, 'Done: ');
    turn = withDelta(turn, 'hi');
    expect(turn.segments).toEqual([
      { text: 'Let me check.', callIds: ['t1'] },
      { text: 'Done: hi', callIds: [] },
    ]);
    expect(turn.cards.t1!.state).toBe('running');
    expect(turn.pendingUser).toBe('question');
  });

  it('holds a tool card that arrives before any text', () => {
    const turn = withCard(emptyTurn(), card('t1', 'running'));
    expect(turn.segments).toEqual([{ text: '', callIds: ['t1'] }]);
  });

  it('records the turn state and its error, and clears the error on the next state', () => {
    const failed = withState(emptyTurn(), 'failed', 'OpenAI-compatible fake-model: 500');
    expect(failed).toMatchObject({ state: 'failed', error: 'OpenAI-compatible fake-model: 500' });
    expect(withState(failed, 'streaming').error).toBeUndefined();
  });
});

describe('buildRows', () => {
  const stored: ChatMessage[] = [
    { role: 'user', text: 'echo hi', at: 1 },
    { role: 'assistant', text: 'Calling echo.', toolCalls: [{ id: 't1', name: 'everything__echo', args: { message: 'hi' } }], at: 2 },
    {
      role: 'tool',
      results: [{ callId: 't1', name: 'everything__echo', server: 'everything', tool: 'echo', args: { message: 'hi' }, state: 'succeeded', result: { content: [{ type: 'text', text: 'Echo: hi' }], truncatedChars: 0 }, textForModel: 'Echo: hi' }],
      at: 3,
    },
    { role: 'assistant', text: 'It said hi.', toolCalls: [], at: 4 },
  ];

  it('offers Retry on a stored conversation that ends without an answer, saying its reason is not kept (it outlives a reload)', () => {
    const asked: ChatMessage[] = [{ role: 'user', text: 'hello?', at: 1 }];
    expect(buildRows(asked, undefined).at(-1)).toEqual({ key: 'last-error', kind: 'status', tone: 'error', text: UNANSWERED });
    expect(buildRows(stored.slice(0, 3), undefined).at(-1)).toMatchObject({ kind: 'status', text: UNANSWERED });
    // The failure seen in this page wins; a running turn or an answer needs no Retry.
    expect(buildRows(asked, undefined, { text: 'cannot reach the endpoint' }).at(-1)).toMatchObject({ text: 'cannot reach the endpoint' });
    expect(buildRows(asked, emptyTurn()).some((r) => r.kind === 'status')).toBe(false);
    expect(buildRows(stored, undefined).some((r) => r.kind === 'status')).toBe(false);
  });

  it('folds tool results into the call that asked for them', () => {
    const rows = buildRows(stored, undefined);
    expect(rows.map((r) => r.kind)).toEqual(['user', 'assistant', 'assistant']);
    const call = rows[1]!.kind === 'assistant' ? rows[1]!.calls[0] : undefined;
    expect(call).toMatchObject({ callId: 't1', state: 'succeeded', server: 'everything', result: { content: [{ type: 'text', text: 'Echo: hi' }] } });
  });

  it('shows a denied call with what the model was told', () => {
    const denied: ChatMessage[] = [
      stored[1]!,
      { role: 'tool', results: [{ callId: 't1', name: 'everything__echo', args: {}, state: 'denied', textForModel: 'The user denied this call: not now' }], at: 3 },
    ];
    const row = buildRows(denied, undefined)[0]!;
    expect(row.kind === 'assistant' && row.calls[0]).toMatchObject({ state: 'denied', error: 'The user denied this call: not now' });
  });

  it('brings back why a stored call ran or was denied and how long it took, and says a denial once', () => {
    const settled: ChatMessage[] = [
      stored[1]!,
      { role: 'tool', results: [{ callId: 't1', name: 'everything__echo', args: {}, state: 'succeeded', because: 'you allowed it once', elapsedMs: 420, textForModel: 'ok' }], at: 3 },
    ];
    const ran = buildRows(settled, undefined)[0]!;
    expect(ran.kind === 'assistant' && ran.calls[0]).toMatchObject({ state: 'succeeded', because: 'you allowed it once', elapsedMs: 420 });
    const denied: ChatMessage[] = [
      stored[1]!,
      { role: 'tool', results: [{ callId: 't1', name: 'everything__echo', args: {}, state: 'denied', because: 'you denied it: not now', textForModel: 'The user denied this tool call. Reason: not now' }], at: 3 },
    ];
    const row = buildRows(denied, undefined)[0]!;
    expect(row.kind === 'assistant' && row.calls[0]).toMatchObject({ state: 'denied', because: 'you denied it: not now' });
    expect(row.kind === 'assistant' && row.calls[0]!.error).toBeUndefined();
  });

  it("keeps a failed call's class and fix, stored or live, for the tool card", () => {
    const diagnosis = { class: 'misuse' as const, fix: 'change the arguments' };
    const failed: ChatMessage[] = [
      stored[1]!,
      { role: 'tool', results: [{ callId: 't1', name: 'everything__echo', args: {}, state: 'failed', error: 'bad arguments', diagnosis, textForModel: 'refused' }], at: 3 },
    ];
    const row = buildRows(failed, undefined)[0]!;
    expect(row.kind === 'assistant' && row.calls[0]).toMatchObject({ state: 'failed', error: 'bad arguments', diagnosis });
    const live = withCard(emptyTurn('x'), { conversationId: 'c', callId: 't2', name: 'everything__echo', args: {}, state: 'failed', error: 'timed out', diagnosis: { class: 'transient', fix: 'retry' } });
    const liveRow = buildRows([], live).at(-1)!;
    expect(liveRow.kind === 'assistant' && liveRow.calls[0]).toMatchObject({ error: 'timed out', diagnosis: { class: 'transient', fix: 'retry' } });
  });

  it('marks a stored call without outcome cancelled once no turn runs, and waiting while one does', () => {
    const open: ChatMessage[] = [stored[0]!, stored[1]!];
    const idle = buildRows(open, undefined)[1]!;
    expect(idle.kind === 'assistant' && idle.calls[0]!.state).toBe('cancelled');
    const busy = buildRows(open, emptyTurn())[1]!;
    expect(busy.kind === 'assistant' && busy.calls[0]!.state).toBe('awaiting_approval');
  });

  it('appends the live turn after the stored messages, streaming on its last message only', () => {
    let live = withDelta(emptyTurn('next?'), 'Looking');
    live = withCard(live, card('t9', 'running', { progress: { progress: 2, total: 4 }, startedAt: 100 }));
    live = withDelta(live, 'Half');
    const rows = buildRows(stored, live);
    expect(rows.slice(3).map((r) => [r.key, r.kind, r.kind === 'assistant' ? r.streaming : undefined])).toEqual([
      ['live-user', 'user', undefined],
      ['call:t9', 'assistant', false],
      ['live1', 'assistant', true],
    ]);
    const liveCall = rows[4]!.kind === 'assistant' ? rows[4]!.calls[0] : undefined;
    expect(liveCall).toMatchObject({ callId: 't9', state: 'running', progress: { progress: 2, total: 4 }, startedAt: 100 });
  });

  it('keys a row with tool calls by its first call, live and stored alike, so its cards and apps stay mounted when the turn ends', () => {
    const live = withCard(withDelta(emptyTurn('time?'), 'Checking'), card('t9', 'succeeded'));
    const liveRow = buildRows([], live).find((r) => r.kind === 'assistant')!;
    const storedTurn: ChatMessage[] = [
      { role: 'user', text: 'time?', at: 1 },
      { role: 'assistant', text: 'Checking', toolCalls: [{ id: 't9', name: 'everything__echo', args: {} }], at: 2 },
      { role: 'tool', results: [{ callId: 't9', name: 'everything__echo', args: {}, state: 'succeeded', textForModel: 'ok' }], at: 3 },
    ];
    const storedRow = buildRows(storedTurn, undefined).find((r) => r.kind === 'assistant')!;
    expect(liveRow.key).toBe('call:t9');
    expect(storedRow.key).toBe(liveRow.key);
    // Rows without calls keep their place-based keys, and every key in a build is distinct.
    const keys = buildRows(storedTurn, withDelta(emptyTurn('more'), 'Sure')).map((r) => r.key);
    expect(keys).toEqual(['m0', 'call:t9', 'live-user', 'live0']);
  });

  it('shows a waiting placeholder until the first delta or card arrives, and not once the turn ended', () => {
    expect(buildRows([], emptyTurn('hi')).map((r) => [r.key, r.kind === 'assistant' && r.streaming])).toEqual([
      ['live-user', false],
      ['live-wait', true],
    ]);
    expect(buildRows([], withDelta(emptyTurn('hi'), 'H')).map((r) => r.key)).toEqual(['live-user', 'live0']);
    expect(buildRows([], withState(emptyTurn('hi'), 'done')).map((r) => r.key)).toEqual(['live-user']);
  });

  it('does not show a live card twice once the stored conversation has its call', () => {
    const live = withCard(emptyTurn(), card('t1', 'succeeded', { elapsedMs: 40 }));
    const rows = buildRows(stored, live);
    expect(rows.filter((r) => r.kind === 'assistant' && r.calls.some((c) => c.callId === 't1'))).toHaveLength(1);
    expect(rows[1]!.kind === 'assistant' && rows[1]!.calls[0]!.elapsedMs).toBe(40);
  });

  it('ends with the failure, naming the cause, or a cancelled note', () => {
    expect(buildRows([], withState(emptyTurn(), 'failed', 'Anthropic claude: 401 invalid x-api-key')).at(-1)).toEqual({
      key: 'live-error',
      kind: 'status',
      tone: 'error',
      text: 'Anthropic claude: 401 invalid x-api-key',
    });
    expect(buildRows([], withState(emptyTurn(), 'cancelled')).at(-1)).toMatchObject({ kind: 'status', text: 'Turn cancelled.' });
    expect(buildRows(stored, undefined, { text: 'the provider failed' }).at(-1)).toMatchObject({ kind: 'status', tone: 'error', text: 'the provider failed' });
    const diagnosis = { class: 'transient' as const, fix: 'check the endpoint URL' };
    expect(buildRows(stored, undefined, { text: 'cannot reach', diagnosis }).at(-1)).toEqual({ key: 'last-error', kind: 'status', tone: 'error', text: 'cannot reach', diagnosis });
    expect(buildRows([], withState(emptyTurn(), 'failed', 'cannot reach', diagnosis)).at(-1)).toMatchObject({ key: 'live-error', diagnosis });
  });
});

describe('formatting', () => {
  it('formats elapsed time for the card', () => {
    expect(formatElapsed(420)).toBe('420 ms');
    expect(formatElapsed(1250)).toBe('1.3 s');
    expect(formatElapsed(125_000)).toBe('2 min 5 s');
  });

  it('gives a progress fraction only when there is a total', () => {
    expect(progressFraction({ progress: 5, total: 10 })).toBe(0.5);
    expect(progressFraction({ progress: 15, total: 10 })).toBe(1);
    expect(progressFraction({ progress: 5 })).toBeUndefined();
    expect(progressFraction({ progress: 5, total: 0 })).toBeUndefined();
    expect(progressFraction(undefined)).toBeUndefined();
  });
});

describe('buildRows after the turn ended', () => {
  it('keeps what only the cards knew (why it ran, elapsed time) once the stored outcome is shown', () => {
    const messages: ChatMessage[] = [
      { role: 'assistant', text: '', toolCalls: [{ id: 't1', name: 'everything__echo', args: {} }], at: 1 },
      { role: 'tool', results: [{ callId: 't1', name: 'everything__echo', args: {}, state: 'succeeded', textForModel: 'ok' }], at: 2 },
    ];
    const settled = { t1: card('t1', 'succeeded', { because: 'you always allow this tool', elapsedMs: 7 }) };
    const row = buildRows(messages, undefined, undefined, settled)[0]!;
    expect(row.kind === 'assistant' && row.calls[0]).toMatchObject({ state: 'succeeded', because: 'you always allow this tool', elapsedMs: 7 });
    const bare = buildRows(messages, undefined)[0]!;
    expect(bare.kind === 'assistant' && bare.calls[0]!.because).toBeUndefined();
  });
});

describe('tools on demand in the rows', () => {
  const loaded = [{ name: 'everything__get-sum', server: 'everything', tool: 'get-sum' }];

  it('shows a provider tool search before the reply\'s calls, once, with what it loaded and why', () => {
    const messages: ChatMessage[] = [
      { role: 'user', text: 'add', at: 1 },
      { role: 'assistant', text: '', at: 2, toolCalls: [{ id: 't1', name: 'everything__get-sum', args: { a: 1, b: 2 } }], toolSearches: [{ id: 's1', query: 'add numbers', loaded }] },
      { role: 'tool', at: 3, results: [{ callId: 't1', name: 'everything__get-sum', args: { a: 1, b: 2 }, state: 'succeeded', textForModel: '3' }] },
    ];
    const settled = { s1: card('s1', 'succeeded', { name: 'tool_search', because: 'Anthropic searched for "add numbers"', loaded }) };
    const rows = buildRows(messages, undefined, undefined, settled);
    const calls = rows.flatMap((r) => (r.kind === 'assistant' ? r.calls : []));
    expect(calls.map((c) => c.callId)).toEqual(['s1', 't1']);
    expect(calls[0]).toMatchObject({ name: 'tool_search', state: 'succeeded', args: { query: 'add numbers' }, loaded, because: 'Anthropic searched for "add numbers"' });
  });

  it('keeps what find_tools loaded on its stored outcome', () => {
    const messages: ChatMessage[] = [
      { role: 'assistant', text: '', at: 1, toolCalls: [{ id: 'f1', name: 'find_tools', args: { query: 'add' } }] },
      { role: 'tool', at: 2, results: [{ callId: 'f1', name: 'find_tools', args: { query: 'add' }, state: 'succeeded', textForModel: 'Loaded 1 tool', loaded, because: 'searched for "add"' }] },
    ];
    const [row] = buildRows(messages, undefined);
    expect(row!.kind === 'assistant' && row!.calls[0]).toMatchObject({ callId: 'f1', loaded, because: 'searched for "add"' });
  });
});

describe('what a failed call is called', () => {
  it('a result the tool marked as an error says the tool reported it; a call that failed otherwise says Failed', () => {
    const result = { content: [{ type: 'text' as const, text: 'no such city' }], isError: true, truncatedChars: 0 };
    expect(callStateLabel({ state: 'failed', result })).toBe('The tool reported an error');
    expect(callStateLabel({ state: 'failed' })).toBe('Failed');
    expect(callStateLabel({ state: 'succeeded', result: { ...result, isError: false } })).toBe('Done');
  });

  it('"Not run" only for a call that never reached the server', () => {
    expect(failedRunHeading({ code: 'invalid_input' })).toBe('Not run');
    expect(failedRunHeading({ code: 'conflict' })).toBe('Not run');
    expect(failedRunHeading({ code: 'internal' })).toBe('Failed');
    expect(failedRunHeading({ code: 'unavailable' })).toBe('Failed');
  });
});
