import type { BundleFieldView, BundleSettingValue } from '../../../src-preload/contract';

/** What the install form holds for one setting: text for most, a flag for booleans. */
export type FieldInput = string | boolean;

/**
 * Fields start with the bundle's default as a real value (main resolved ${HOME} and friends), so
 * what the person sees is what is written and a default can be changed or cleared (SECURITY V2).
 */
export function initialInputs(fields: BundleFieldView[]): Record<string, FieldInput> {
  return Object.fromEntries(fields.map((f) => [f.key, f.type === 'boolean' ? f.default === true : f.default === undefined ? '' : Array.isArray(f.default) ? f.default.join('\n') : String(f.default)]));
}

/** A hint in an empty field. */
export function defaultHint(field: BundleFieldView): string {
  return field.multiple && field.type !== 'boolean' ? 'one per line' : '';
}

/**
 * Split the form into values (for the config) and secrets (for the keychain). Every setting that is
 * not secret is sent, empty ones too, so a cleared default stays cleared; a list takes one item per line.
 */
export interface BundlePayload {
  values: Record<string, BundleSettingValue>;
  secrets: Record<string, string>;
}

export function formPayload(fields: BundleFieldView[], inputs: Record<string, FieldInput>): BundlePayload {
  const values: Record<string, BundleSettingValue> = {};
  const secrets: Record<string, string> = {};
  for (const field of fields) {
    const input = inputs[field.key];
    if (field.type === 'boolean') {
      values[field.key] = input === true;
      continue;
    }
    const text = typeof input === 'string' ? input : '';
    if (field.sensitive) {
      if (text !== '') secrets[field.key] = text;
    } else if (field.multiple) {
      values[field.key] = text.split('\n').map((s) => s.trim()).filter(Boolean);
    } else {
      values[field.key] = field.type === 'number' && text.trim() !== '' ? Number(text) : text;
    }
  }
  return { values, secrets };
}

/** How a sensitive setting shows in the preview: main writes a keychain reference there, never the value. */
export const KEYCHAIN_MARK = '[kept in the keychain]';

/**
 * The command line with the form's current settings in place of `${user_config.KEY}`, as main's plan
 * fills it (SECURITY V2): a list as a whole argument becomes one argument per item, a typed sensitive
 * value shows as KEYCHAIN_MARK. `${__dirname}` and the other bundle variables stay as written (the
 * form says where they point).
 */
export function filledCommandLine(preview: { args: string[]; env: Record<string, string> }, fields: BundleFieldView[], inputs: Record<string, FieldInput>): { args: string[]; env: Record<string, string> } {
  const payload = formPayload(fields, inputs);
  const valueOf = (key: string): string | string[] | undefined => {
    const field = fields.find((f) => f.key === key);
    if (!field) return undefined;
    if (field.sensitive) return payload.secrets[key] ? KEYCHAIN_MARK : '';
    const value = payload.values[key];
    return Array.isArray(value) ? value : value === undefined ? '' : String(value);
  };
  const fill = (text: string) =>
    text.replace(/\$\{user_config\.([^}]+)\}/g, (whole, key: string) => {
      const value = valueOf(key);
      return value === undefined ? whole : Array.isArray(value) ? value.join(' ') : value;
    });
  const args = preview.args.flatMap((arg) => {
    const whole = /^\$\{user_config\.([^}]+)\}$/.exec(arg);
    const value = whole ? valueOf(whole[1]!) : undefined;
    return Array.isArray(value) ? value : [fill(arg)];
  });
  return { args, env: Object.fromEntries(Object.entries(preview.env).map(([k, v]) => [k, fill(v)])) };
}
