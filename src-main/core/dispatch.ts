import { fail, isInvokeName, ok, parseInput, type Handlers, type Result } from '../../src-preload/contract';
import { AppFailure, toAppError } from './app-error';
import type { Scrubber } from './secrets/scrubber';

/**
 * The one path every inbound call takes, in both shells: known method, schema-parsed
 * payload, handler, and any failure turned into a Result value (nothing is thrown across).
 */
export async function dispatch(handlers: Handlers, method: string, payload: unknown): Promise<Result<unknown>> {
  if (!isInvokeName(method)) return fail('not_found', `unknown method: ${method}`);
  const input = parseInput(method, payload);
  if (!input.ok) return input;
  try {
    const handler = handlers[method] as (input: unknown) => Promise<unknown>;
    return ok(await handler(input.value));
  } catch (error) {
    return { ok: false, error: toAppError(error) };
  }
}

/**
 * The answer edge (SECURITY S7): every handler's answer, and the message of every failure it throws,
 * scrubbed of the secrets the process knows, whichever shell dispatches it. Every key is wrapped,
 * so a handler added later is scrubbed too.
 */
export function scrubbedAnswers(handlers: Handlers, scrubber: Scrubber): Handlers {
  const wrapped = Object.entries(handlers).map(([name, handler]) => [
    name,
    async (input: unknown) => {
      try {
        return scrubber.value(await (handler as (input: unknown) => Promise<unknown>)(input));
      } catch (error) {
        const { code, message, diagnosis } = toAppError(error);
        throw new AppFailure(code, scrubber.text(message), diagnosis && scrubber.value(diagnosis));
      }
    },
  ]);
  return Object.fromEntries(wrapped) as Handlers;
}
