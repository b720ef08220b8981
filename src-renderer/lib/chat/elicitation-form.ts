/**
 * An elicitation's requested schema as form fields, and the typed answer back. MCP limits form
 * elicitation to a flat object of primitives: string, number, integer, boolean, single-choice
 * enums, and multi-choice arrays of enum strings.
 */
export type FormField =
  | { kind: 'string'; name: string; label: string; description?: string; required: boolean; format?: string; minLength?: number; maxLength?: number }
  | { kind: 'number' | 'integer'; name: string; label: string; description?: string; required: boolean; minimum?: number; maximum?: number }
  | { kind: 'boolean'; name: string; label: string; description?: string; required: boolean }
  | { kind: 'enum'; name: string; label: string; description?: string; required: boolean; options: { value: string; label: string }[] }
  | { kind: 'multi'; name: string; label: string; description?: string; required: boolean; options: { value: string; label: string }[]; minItems?: number; maxItems?: number }
  | { kind: 'unsupported'; name: string; label: string; description?: string; required: boolean; type: string };

export type FieldValue = string | boolean | string[];
export type AnswerValue = string | number | boolean | string[];
export type FormAnswer = { ok: true; content: Record<string, AnswerValue> } | { ok: false; errors: Record<string, string> };

export function formFields(schema: Record<string, unknown>): FormField[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(properties).map(([name, raw]) => toField(name, isRecord(raw) ? raw : {}, required.has(name)));
}

function toField(name: string, property: Record<string, unknown>, required: boolean): FormField {
  const base = {
    name,
    label: typeof property.title === 'string' && property.title.trim() !== '' ? property.title : name,
    required,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  };
  const options = enumOptions(property);
  if (options) return { ...base, kind: 'enum', options };
  if (property.type === 'array' && isRecord(property.items)) {
    const choices = enumOptions(property.items);
    if (choices) {
      return {
        ...base,
        kind: 'multi',
        options: choices,
        ...(typeof property.minItems === 'number' ? { minItems: property.minItems } : {}),
        ...(typeof property.maxItems === 'number' ? { maxItems: property.maxItems } : {}),
      };
    }
  }
  switch (property.type) {
    case 'string':
      return {
        ...base,
        kind: 'string',
        ...(typeof property.format === 'string' ? { format: property.format } : {}),
        ...(typeof property.minLength === 'number' ? { minLength: property.minLength } : {}),
        ...(typeof property.maxLength === 'number' ? { maxLength: property.maxLength } : {}),
      };
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: property.type,
        ...(typeof property.minimum === 'number' ? { minimum: property.minimum } : {}),
        ...(typeof property.maximum === 'number' ? { maximum: property.maximum } : {}),
      };
    case 'boolean':
      return { ...base, kind: 'boolean' };
    default:
      return { ...base, kind: 'unsupported', type: JSON.stringify(property.type ?? 'unspecified') };
  }
}

/** `enum` (with optional `enumNames`) or `oneOf`/`anyOf` of `{const, title}`: the shapes MCP allows for a single choice. */
function enumOptions(property: Record<string, unknown>): { value: string; label: string }[] | undefined {
  if (Array.isArray(property.enum)) {
    const names = Array.isArray(property.enumNames) ? property.enumNames : [];
    return property.enum.map((value, i) => ({ value: String(value), label: typeof names[i] === 'string' ? names[i] : String(value) }));
  }
  const variants = Array.isArray(property.oneOf) ? property.oneOf : Array.isArray(property.anyOf) ? property.anyOf : undefined;
  if (variants && variants.length > 0 && variants.every((v) => isRecord(v) && 'const' in v)) {
    return variants.map((v) => {
      const variant = v as Record<string, unknown>;
      return { value: String(variant.const), label: typeof variant.title === 'string' ? variant.title : String(variant.const) };
    });
  }
  return undefined;
}

/** What each input starts with: the schema's default when there is one, else empty (false for a checkbox). */
export function initialValues(fields: FormField[], defaults: Record<string, unknown>): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const field of fields) {
    const value = defaults[field.name];
    if (field.kind === 'boolean') values[field.name] = value === true;
    else if (field.kind === 'multi') values[field.name] = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    else values[field.name] = value === undefined || value === null ? '' : String(value);
  }
  return values;
}

/** The typed answer, or one message per field at fault. Empty optional fields are left out. */
export function formAnswer(fields: FormField[], values: Record<string, FieldValue>): FormAnswer {
  const content: Record<string, AnswerValue> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'boolean') {
      content[field.name] = value === true;
      continue;
    }
    if (field.kind === 'multi') {
      const chosen = Array.isArray(value) ? value : [];
      const problem = multiProblem(field, chosen);
      if (problem) errors[field.name] = problem;
      else if (chosen.length > 0) content[field.name] = [...chosen];
      continue;
    }
    const text = typeof value === 'string' ? value : '';
    if (text.trim() === '') {
      if (field.required) errors[field.name] = `${field.label} is required`;
      continue;
    }
    const result = typed(field, text);
    if (typeof result === 'object') errors[field.name] = result.error;
    else content[field.name] = result;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content };
}

function multiProblem(field: Extract<FormField, { kind: 'multi' }>, chosen: string[]): string | undefined {
  if (chosen.length === 0) return field.required ? `${field.label} is required` : undefined;
  const unknown = chosen.find((c) => !field.options.some((o) => o.value === c));
  if (unknown !== undefined) return `${field.label}: "${unknown}" is not one of the choices`;
  if (field.minItems !== undefined && chosen.length < field.minItems) return `${field.label}: choose at least ${field.minItems}`;
  if (field.maxItems !== undefined && chosen.length > field.maxItems) return `${field.label}: choose at most ${field.maxItems}`;
  return undefined;
}

function typed(field: Exclude<FormField, { kind: 'boolean' | 'multi' }>, text: string): string | number | { error: string } {
  switch (field.kind) {
    case 'string':
      if (field.minLength !== undefined && text.length < field.minLength) return { error: `${field.label} needs at least ${field.minLength} characters` };
      if (field.maxLength !== undefined && text.length > field.maxLength) return { error: `${field.label} allows at most ${field.maxLength} characters` };
      return text;
    case 'number':
    case 'integer': {
      const number = Number(text.trim());
      if (!Number.isFinite(number)) return { error: `${field.label} must be a number` };
      if (field.kind === 'integer' && !Number.isInteger(number)) return { error: `${field.label} must be a whole number` };
      if (field.minimum !== undefined && number < field.minimum) return { error: `${field.label} must be at least ${field.minimum}` };
      if (field.maximum !== undefined && number > field.maximum) return { error: `${field.label} must be at most ${field.maximum}` };
      return number;
    }
    case 'enum':
      return field.options.some((o) => o.value === text) ? text : { error: `${field.label} must be one of ${field.options.map((o) => o.value).join(', ')}` };
    case 'unsupported':
      return { error: `${field.label} has a type this form cannot show (${field.type}); decline the request` };
    default:
      return field satisfies never;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
