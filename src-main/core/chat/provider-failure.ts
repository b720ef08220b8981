/**
 * A model provider's failure (Anthropic's or OpenAI's SDK error) as the chat shows it: what went
 * wrong with which endpoint, its class and the fix — "Connection error." alone says neither.
 * Matched by the SDKs' error names and HTTP status, so both SDKs (loaded on first use) are read alike.
 */
import { terminal, transient, type Diagnosis } from '../diagnosis/diagnosis';

export interface ProviderFailure {
  message: string;
  diagnosis?: Diagnosis;
}

const SETTINGS = 'Model settings (the button at the top of Chat)';

export function providerFailure(error: unknown, label: string): ProviderFailure {
  const message = error instanceof Error ? error.message : String(error);
  const status = (error as { status?: unknown } | undefined)?.status;
  // OpenAI's SDK leaves `name` as "Error": its class name says what it is.
  const name = error instanceof Error ? (error.name !== 'Error' ? error.name : (error.constructor?.name ?? '')) : '';
  if (name === 'APIConnectionTimeoutError') {
    return { message: `${label}: the endpoint did not answer in time`, diagnosis: transient(`check the endpoint URL in ${SETTINGS} and your network, then retry`) };
  }
  if (name === 'APIConnectionError' || (status === undefined && message === 'Connection error.')) {
    const cause = innermostCode(error);
    return { message: `${label}: cannot reach the endpoint (${cause ?? message.replace(/\.$/, '')})`, diagnosis: transient(`check the endpoint URL in ${SETTINGS} and your network, then retry`) };
  }
  if (typeof status !== 'number') return { message: `${label}: ${message}` };
  if (status === 401 || status === 403) return { message: `${label}: ${message}`, diagnosis: terminal(`the provider refused the API key: store a valid one in ${SETTINGS}`) };
  if (status === 404) return { message: `${label}: ${message}`, diagnosis: terminal(`check the model name and the endpoint URL in ${SETTINGS}`) };
  if (status === 429 || status >= 500) return { message: `${label}: ${message}`, diagnosis: transient('the provider is busy or failing on its side; retry in a moment') };
  return { message: `${label}: ${message}` };
}

/** The socket's errno (ECONNREFUSED, ENOTFOUND…) under the SDK's and fetch's wrappers. */
function innermostCode(error: unknown): string | undefined {
  let code: string | undefined;
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const value = (e as { code?: unknown }).code;
    if (typeof value === 'string' && /^E[A-Z]+$/.test(value)) code = value;
  }
  return code;
}
