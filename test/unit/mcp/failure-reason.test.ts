import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { explainFailure } from '../../../src-main/core/mcp/failure-reason';
// The transports' errors are known once remote-connect has loaded them, as it does with the first remote server.
import '../../../src-main/core/mcp/remote-connect';
import { CredentialsRequiredError } from '../../../src-main/core/oauth/credentials-needed';
import { KeychainUnavailableError } from '../../../src-main/core/secrets/keytar-vault';

const ctx = { phase: 'initialize', timeoutMs: 30_000, url: 'https://mcp.example.com/mcp' };

describe('explainFailure', () => {
  it('turns an OAuth UnauthorizedError or any HTTP 401 into needs_auth', () => {
    const needsAuth = { state: 'needs_auth', reason: 'HTTP 401: sign-in required', retryable: false };
    expect(explainFailure(new UnauthorizedError(), ctx)).toEqual(needsAuth);
    expect(explainFailure(new StreamableHTTPError(401, 'Unauthorized'), ctx)).toEqual(needsAuth);
    expect(explainFailure(new SseError(401, 'Unauthorized', undefined as never), ctx)).toEqual(needsAuth);
  });

  it('keeps the whole message of a missing keychain or of a 401 without OAuth, as an error that a retry would not change', () => {
    const keychain = new KeychainUnavailableError('Could not connect: No such file or directory');
    expect(explainFailure(keychain, ctx)).toEqual({ state: 'error', reason: keychain.message, retryable: false });
    expect(explainFailure(new CredentialsRequiredError(ctx.url, 'Bearer'), ctx)).toEqual({
      state: 'error',
      reason: 'HTTP 401: mcp.example.com asks for credentials (WWW-Authenticate: Bearer) and offers no OAuth sign-in',
      retryable: false,
    });
  });

  it('names the timeout, the exit, the HTTP status and the refused host', () => {
    expect(explainFailure(new McpError(ErrorCode.RequestTimeout, 'Request timed out'), ctx).reason).toBe('timed out after 30 s during initialize');
    expect(explainFailure(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), { ...ctx, exit: { code: 1, signal: null } }).reason).toBe(
      'exited with code 1 during initialize',
    );
    expect(explainFailure(new Error('x'), { ...ctx, exit: { code: null, signal: 'SIGKILL' } }).reason).toBe('killed by SIGKILL during initialize');
    expect(explainFailure(new StreamableHTTPError(403, 'Forbidden'), ctx)).toEqual({ state: 'error', reason: 'HTTP 403: access denied by mcp.example.com', retryable: false });
    expect(explainFailure(new StreamableHTTPError(502, 'Bad gateway'), ctx)).toEqual({
      state: 'error',
      reason: 'HTTP 502 from https://mcp.example.com/mcp during initialize',
      retryable: true,
    });
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(explainFailure(refused, ctx)).toEqual({ state: 'error', reason: 'connection refused by mcp.example.com', retryable: true });
  });

  it('adds the innermost cause to an otherwise bare message, such as fetch refusing a port', async () => {
    const refusedPort = await fetch('http://127.0.0.1:9/mcp').catch((e: unknown) => e);
    expect(explainFailure(refusedPort, ctx).reason).toBe('fetch failed (bad port) during initialize');
    expect(explainFailure(new Error('plain'), ctx).reason).toBe('plain during initialize');
  });

  it('lets a fatal transport condition win over the error it caused', () => {
    const fatal = 'stdout line over 4 MiB; stopped reading this server';
    expect(explainFailure(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), { ...ctx, fatal, exit: { code: null, signal: 'SIGTERM' } })).toEqual({
      state: 'error',
      reason: fatal,
      retryable: false,
    });
  });
});
