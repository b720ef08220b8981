/**
 * Every failure a person or a model meets — a connection, a tool call, a sign-in — is one of three
 * classes, with one sentence saying what to do. The rules that pick the class live in this folder:
 * server states in server-diagnosis.ts, tool calls in call-diagnosis.ts, sign-in here.
 */
import type { Diagnosis, FailureClass } from '../../../src-preload/contract';
import { AppFailure } from '../app-error';

export type { Diagnosis, FailureClass };

export const terminal = (fix: string): Diagnosis => ({ class: 'terminal', fix });
export const transient = (fix: string): Diagnosis => ({ class: 'transient', fix });
export const misuse = (fix: string): Diagnosis => ({ class: 'misuse', fix });

/** What the class means, in words the person and the model both read. */
export const CLASS_MEANING: Record<FailureClass, string> = {
  terminal: 'something must be fixed before it can work; retrying as is will fail again',
  transient: 'a passing problem; the same request may work if retried shortly',
  misuse: 'the request itself was wrong; ask differently',
};

/** The same failure, with a diagnosis when it had none yet (an error's own diagnosis wins: its thrower knew best). */
export function withDiagnosis(error: unknown, diagnosis: Diagnosis): AppFailure {
  if (error instanceof AppFailure) return error.diagnosis ? error : new AppFailure(error.code, error.message, diagnosis);
  return new AppFailure('internal', error instanceof Error ? error.message : String(error), diagnosis);
}

/**
 * A sign-in that failed without saying why in its own terms: the authorization server's refusal or
 * an unexpected answer. Fixing the setup is the way out, so it is terminal.
 */
export function signInDiagnosis(server: string): Diagnosis {
  return terminal(`check ${server}'s address and its authorization server (Servers → ${server} → Logs), then sign in again`);
}

/** One line for a terminal or a log: "[transient] retry …". */
export function describeDiagnosis(diagnosis: Diagnosis): string {
  return `[${diagnosis.class}] ${diagnosis.fix}`;
}
