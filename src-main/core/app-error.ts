import type { AppError, Diagnosis, ErrorCode } from '../../src-preload/contract';

/** An error meant for the user: its message is shown as is, so it must name the thing at fault. */
export class AppFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Its class and fix, when the thrower knows them (see core/diagnosis). */
    readonly diagnosis?: Diagnosis,
  ) {
    super(message);
    this.name = 'AppFailure';
  }
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppFailure) return { code: error.code, message: error.message, ...(error.diagnosis ? { diagnosis: error.diagnosis } : {}) };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message };
}
