import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CredentialsRequiredError } from '../oauth/credentials-needed';
import { KeychainUnavailableError } from '../secrets/keytar-vault';
import type { ServerConfig } from '../config/server-config';
import type { ChildExit } from './stdio-transport';
import { transportErrorCode } from './transport-errors';

export interface Failure {
  state: 'error' | 'needs_auth';
  reason: string;
  /** Worth retrying with backoff when it happens to a server that was up (a crash, a drop). */
  retryable: boolean;
  /** A process that died: the last lines it wrote to stderr, the cause the person needs to read. */
  stderrTail?: string[];
}

/** How many stderr lines a crash carries in its state: enough for a stack's head, short enough for a row. */
export const STDERR_TAIL_LINES = 8;

export interface FailureContext {
  phase: string;
  timeoutMs: number;
  exit?: ChildExit;
  /** A fatal condition the transport recorded (e.g. a stdout line over the cap). */
  fatal?: string;
  url?: string;
  /** The process's stderr so far (its log ring); a crash keeps the last lines of it. */
  stderr?: string[];
}

/** Why a stdio server waits for approval: a bundle the person installed is theirs to approve, a project's file is not theirs. */
export function trustRequiredReason(config: ServerConfig): string {
  if (config.kind === 'remote') return `defined in ${config.source.path}, which you did not write in Switchboard: approve ${config.url} before it connects`;
  return config.source.origin === 'bundle'
    ? `installed from a bundle: approve what it runs ("${config.command}") before it starts`
    : `defined in ${config.source.path}, which you did not write in Switchboard: approve "${config.command}" before it runs`;
}

export const SIGN_IN_REQUIRED = 'HTTP 401: sign-in required';

/** Turn whatever a connect attempt threw into the state and the sentence the user sees. */
export function explainFailure(error: unknown, context: FailureContext): Failure {
  if (context.fatal) return { state: 'error', reason: context.fatal, retryable: false };
  if (isUnauthorized(error)) return { state: 'needs_auth', reason: SIGN_IN_REQUIRED, retryable: false };
  // Their messages are the whole story (what is missing and where), and a retry changes neither.
  if (error instanceof CredentialsRequiredError || error instanceof KeychainUnavailableError) return { state: 'error', reason: error.message, retryable: false };
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    // A start kept alive by its progress ends at a cap longer than the timeout (first-run.ts): say which limit it met.
    const waited = (error.data as { timeout?: unknown } | undefined)?.timeout;
    const limit = typeof waited === 'number' && waited > context.timeoutMs ? `${seconds(waited)}, the most a busy start may take,` : seconds(context.timeoutMs);
    return { state: 'error', reason: `timed out after ${limit} during ${context.phase}`, retryable: true };
  }
  if (context.exit) return { state: 'error', reason: `${describeExit(context.exit)} during ${context.phase}`, retryable: true, stderrTail: stderrTail(context.stderr) };
  const code = transportErrorCode(error);
  if (code === 403) return { state: 'error', reason: `HTTP 403: access denied by ${host(context.url)}`, retryable: false };
  if (code !== undefined && code > 0) return { state: 'error', reason: `HTTP ${code} from ${context.url ?? 'the server'} during ${context.phase}`, retryable: code >= 500 };
  const errno = systemCode(error);
  if (errno === 'ECONNREFUSED') return { state: 'error', reason: `connection refused by ${host(context.url)}`, retryable: true };
  if (errno === 'ENOTFOUND') return { state: 'error', reason: `host not found: ${host(context.url)}`, retryable: true };
  if (errno === 'ENOENT' || errno === 'EACCES') return { state: 'error', reason: `cannot start the server: ${(error as Error).message}`, retryable: false };
  return { state: 'error', reason: `${withCause(error)} during ${context.phase}`, retryable: true };
}

/** "fetch failed" alone says nothing: add the innermost cause's words ("fetch failed (bad port)"). */
function withCause(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let inner: unknown = error;
  for (let depth = 0; depth < 4 && (inner as { cause?: unknown })?.cause instanceof Error; depth++) inner = (inner as { cause: Error }).cause;
  const cause = inner !== error && inner instanceof Error ? inner.message : '';
  return cause && cause !== message ? `${message} (${cause})` : message;
}

/** The last non-blank stderr lines, without Switchboard's own notes in the same ring. */
export function stderrTail(lines: string[] = []): string[] {
  return lines.filter((line) => line.trim() !== '' && !line.startsWith('[switchboard]')).slice(-STDERR_TAIL_LINES);
}

export function describeExit(exit: ChildExit): string {
  return exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code ?? 'unknown'}`;
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof UnauthorizedError || transportErrorCode(error) === 401;
}


/** fetch wraps socket errors: the errno lives on error.cause. */
function systemCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function host(url: string | undefined): string {
  return url && URL.canParse(url) ? new URL(url).host : 'the server';
}
