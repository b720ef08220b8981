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
