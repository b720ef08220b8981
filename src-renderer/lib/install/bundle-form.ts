import type { BundleFieldView, BundleSettingValue } from '../../../src-preload/contract';

/** What the install form holds for one setting: text for most, a flag for booleans. */
export type FieldInput = string | boolean;

/** Text fields start empty, so the bundle's default (which may use ${HOME} and friends) applies unless replaced. */
export function initialInputs(fields: BundleFieldView[]): Record<string, FieldInput> {
  return Object.fromEntries(fields.map((f) => [f.key, f.type === 'boolean' ? f.default === true : '']));
}

/** The default, as a hint in an empty field. */
export function defaultHint(field: BundleFieldView): string {
  if (field.default === undefined || field.type === 'boolean') return field.multiple ? 'one per line' : '';
  return `default: ${Array.isArray(field.default) ? field.default.join(', ') : String(field.default)}`;
}

/**
 * Split the form into values (for the config) and secrets (for the keychain). An empty field is
 * left out, so the bundle's default applies; a list takes one item per line.
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
    const text = typeof input === 'string' ? input : '';
    if (field.type === 'boolean') values[field.key] = input === true;
    else if (field.sensitive) {
      if (text !== '') secrets[field.key] = text;
    } else if (field.multiple) {
      const items = text.split('\n').map((s) => s.trim()).filter(Boolean);
      if (items.length) values[field.key] = items;
    } else if (text.trim() !== '') {
      values[field.key] = field.type === 'number' ? Number(text) : text;
    }
  }
  return { values, secrets };
}
