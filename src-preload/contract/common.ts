/** Shared pieces of the contract: Result values, error codes and small schema helpers. */
import { z } from 'zod';

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };
export interface AppError {
  code: ErrorCode;
  message: string;
  /** For a failure the person or the model can act on: which kind it was and what to do. */
  diagnosis?: Diagnosis;
}

/**
 * What kind of failure it was: terminal (something must be fixed first: config, command, access),
 * transient (a retry may well work: timeout, network, server restarting), or misuse (the model or the
 * person asked wrongly: bad arguments, an unknown or disabled tool).
 */
export type FailureClass = 'terminal' | 'transient' | 'misuse';
export interface Diagnosis {
  class: FailureClass;
  /** One sentence: what to do about it. */
  fix: string;
}
export type ErrorCode =
  | 'invalid_input'
  | 'forbidden_sender'
  | 'not_found'
  | 'conflict'
  | 'unavailable'
  | 'internal';

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string): Result<never> => ({ ok: false, error: { code, message } });

/** Type-only marker for an output or event payload; main builds these, so they are not parsed. */
export const out = <T>() => undefined as unknown as T;

export const empty = z.object({}).strict();

/**
 * A tool's arguments: an object of named values, taken as it came. JSON and IPC only ever give
 * string keys, so a record schema's copy key by key checked nothing more (and was the dearest step of
 * parsing a tool call); the tool's own input schema checks the values.
 */
export const toolArguments = z.custom<Record<string, unknown>>((value) => value !== null && typeof value === 'object' && !Array.isArray(value), {
  error: (issue) => `expected an object of named arguments, received ${issue.input === null ? 'null' : Array.isArray(issue.input) ? 'array' : typeof issue.input}`,
});

export const serverName = z
  .string()
  .min(1, 'server name is empty')
  .max(100, 'server name is over 100 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'server name may use only letters, digits, "_", "." and "-"')
  // Assigning it to a plain object replaces the object's prototype: JSON readers drop it, maps keyed by name break.
  .refine((name) => name !== '__proto__', 'server name "__proto__" is reserved');
