import type { InstallInputView, InstallRunsView } from '../../../src-preload/contract';

/** How a typed secret shows in the preview: main writes a keychain reference there, never the value. */
export const KEYCHAIN_MARK = '[kept in the keychain]';

/**
 * What will be written with the form's current values, as main fills it (SECURITY V2): each `{key}`
 * replaced by its value, a typed secret by KEYCHAIN_MARK; an environment variable or header that
 * comes out empty is left out, as main leaves it out. An empty secret keeps its `{key}` slot.
 */
export function filledRuns(runs: InstallRunsView, inputs: InstallInputView[], values: Record<string, string>): InstallRunsView {
  const fill = (text: string): string =>
    inputs.reduce((out, input) => {
      const value = values[input.key] ?? '';
      const shown = input.secret ? (value ? KEYCHAIN_MARK : `{${input.key}}`) : value;
      return out.split(`{${input.key}}`).join(shown);
    }, text);
  // Only a value that an empty input emptied is left out (a link's own empty value is written as given).
  const map = (m?: Record<string, string>) => (m ? Object.fromEntries(Object.entries(m).flatMap(([k, v]) => (fill(v) === '' && v !== '' ? [] : [[k, fill(v)]]))) : undefined);
  return {
    ...runs,
    ...(runs.command !== undefined ? { args: (runs.args ?? []).map(fill), env: map(runs.env) } : {}),
    ...(runs.url !== undefined ? { url: fill(runs.url), headers: map(runs.headers) } : {}),
  };
}
