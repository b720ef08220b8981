/**
 * The tools panel's "Run…": the arguments a run starts from. Main checks the arguments again against
 * the full schema (it is the authority); what is here only gives the person a sensible start.
 */
import { schemaDefaults } from '../../../src-preload/contract/values';
import type { FormField } from '../chat/elicitation-form';

/** What the JSON editor starts with: the defaults, plus an empty value of the right type for each required key. */
export function argsTemplate(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = propertiesOf(schema);
  const args = schemaDefaults(schema);
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  for (const key of required) {
    if (!Object.hasOwn(args, key)) args[key] = emptyValue(properties[key]);
  }
  return args;
}

/** The form fits when every field is one it can show; anything else (nested objects, free arrays) is edited as JSON. */
export function formFits(fields: FormField[]): boolean {
  return fields.every((field) => field.kind !== 'unsupported');
}

function emptyValue(property: unknown): unknown {
  const type = isRecord(property) ? (Array.isArray(property.type) ? property.type[0] : property.type) : undefined;
  switch (type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return null;
  }
}

function propertiesOf(schema: Record<string, unknown>): Record<string, unknown> {
  return isRecord(schema.properties) ? schema.properties : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
