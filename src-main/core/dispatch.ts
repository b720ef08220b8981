import { fail, isInvokeName, ok, parseInput, type Handlers, type Result } from '../../src-preload/contract';
import { toAppError } from './app-error';

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
