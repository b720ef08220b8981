import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { StdioServerConfig } from '../../../src-main/core/config/server-config';
import { ARGUMENTS_FIX, callFailure, diagnoseToolResult, plainSchemaErrors } from '../../../src-main/core/diagnosis/call-diagnosis';
import { AppFailure } from '../../../src-main/core/app-error';
import { toAppError } from '../../../src-main/core/app-error';

const source = { path: '/s.json', origin: 'switchboard' as const, userWritten: true };
const config: StdioServerConfig = { kind: 'stdio', name: 'box', command: 'node', args: [], env: {}, enabled: true, timeout: 30, toolTimeout: 5, approval: 'ask', source };
const context = { server: 'box', tool: 'echo', config, state: { kind: 'connected' as const, reason: 'connected over stdio' }, limits: { timeout: 5000, hardMax: 50_000 }, cancelledByCaller: false };

describe('callFailure', () => {
  it.each([
    [ErrorCode.InvalidParams, 'misuse', ARGUMENTS_FIX],
    [ErrorCode.MethodNotFound, 'misuse', 'call only tools box lists (switchboard tools box)'],
    [ErrorCode.InternalError, 'terminal', 'the server could not handle it; read its log (Servers → box → Logs) and report it to its author if it repeats'],
  ])('classes a JSON-RPC error %i from the server as %s', (code, kind, fix) => {
    const failure = callFailure(new McpError(code, 'nope'), context);
    expect(failure.message).toBe(`server "box" rejected the call to "echo": MCP error ${code}: nope`);
    expect(failure.diagnosis).toEqual({ class: kind, fix });
  });

  it('classes the hard maximum as transient and says it is 10 times toolTimeout', () => {
    const failure = callFailure(new McpError(ErrorCode.RequestTimeout, 'Maximum total timeout exceeded'), context);
    expect(failure.message).toBe('tool "echo" on server "box" ran past the hard maximum of 50 s; cancelled');
    expect(failure.diagnosis).toEqual({ class: 'transient', fix: 'try again with a smaller request, or raise "toolTimeout" for "box" (now 5 s): the hard maximum is 10 times it' });
  });

  it('gives a network failure the transient class', () => {
    expect(callFailure(new TypeError('fetch failed'), context).diagnosis?.class).toBe('transient');
  });

  it('a cancel by the caller is not a failure with a class', () => {
    expect(callFailure(new Error('aborted'), { ...context, cancelledByCaller: true }).diagnosis).toBeUndefined();
  });

  it('keeps a failure that already has its class, and the class crosses to the UI with the error', () => {
    const failure = new AppFailure('unavailable', 'x', { class: 'terminal', fix: 'y' });
    expect(callFailure(failure, context)).toBe(failure);
    expect(toAppError(failure)).toEqual({ code: 'unavailable', message: 'x', diagnosis: { class: 'terminal', fix: 'y' } });
  });
});

describe('diagnoseToolResult', () => {
  const result = (text: string, isError = true) => ({ content: [{ type: 'text' as const, text }], isError, truncatedChars: 0 });
  it('reads the SDK server’s "invalid params" error result as misuse', () => {
    expect(diagnoseToolResult(result('MCP error -32602: Input validation error: Invalid arguments for tool echo'))).toEqual({ class: 'misuse', fix: ARGUMENTS_FIX });
  });
  it('leaves the tool’s own error answer and a success unclassified', () => {
    expect(diagnoseToolResult(result('the tool failed'))).toBeUndefined();
    expect(diagnoseToolResult(result('MCP error -32602: looks like one', false))).toBeUndefined();
  });
});

describe('a network refusal is transient, whoever reports it', () => {
  it('classes a server\'s JSON-RPC error that carries ECONNREFUSED as transient, not as the author\'s bug', () => {
    const failure = callFailure(new McpError(ErrorCode.InternalError, 'connect ECONNREFUSED 127.0.0.1:5432'), context);
    expect(failure.diagnosis).toEqual({ class: 'transient', fix: 'box could not reach a service it needs (ECONNREFUSED): check that the service is up and reachable, then try again' });
  });

  it('classes a tool\'s own error result about the network as transient, and leaves other error results unclassed', () => {
    const refused = { content: [{ type: 'text' as const, text: 'Error: getaddrinfo ENOTFOUND api.example.com' }], isError: true, truncatedChars: 0 };
    expect(diagnoseToolResult(refused)?.class).toBe('transient');
    expect(diagnoseToolResult({ content: [{ type: 'text', text: 'no such city' }], isError: true, truncatedChars: 0 })).toBeUndefined();
  });
});

describe('plainSchemaErrors', () => {
  it('says what the validator found in plain words, field first', () => {
    expect(plainSchemaErrors('data/a must be number')).toBe('a: must be a number');
    expect(
      plainSchemaErrors(
        "data must have required property 'b', data must NOT have additional properties, data/s must NOT have fewer than 2 characters, data/n must be <= 5, data/e must be equal to one of the allowed values, data/l/0/q must be boolean, data/n must be integer",
      ),
    ).toBe(
      'b: is required; an argument the tool does not take was given; s: must have at least 2 characters; n: must be at most 5; e: must be one of the allowed values; l[0].q: must be true or false; n: must be a whole number',
    );
  });

  it('keeps words it does not know, and unescapes a JSON-pointer field name', () => {
    expect(plainSchemaErrors('data/s must match format "uri"')).toBe('s: must match format "uri"');
    expect(plainSchemaErrors('data/a~1b~0c must be string')).toBe('a/b~c: must be text');
    expect(plainSchemaErrors('something else entirely')).toBe('something else entirely');
  });
});
