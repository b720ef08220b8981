/**
 * Checks arguments the user edited in the approval dialog before they are sent. Main validates
 * them again against the tool's full schema (it is the authority); this catches the common
 * mistakes early, with a message that names the argument at fault.
 */
export type ArgsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export function checkEditedArgs(text: string, schema: Record<string, unknown>): ArgsCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `the arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, error: `the arguments must be a JSON object, not ${describeType(parsed)}` };
  }
  const args = parsed as Record<string, unknown>;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  for (const name of required) {
    if (!Object.hasOwn(args, name)) return { ok: false, error: `missing required argument "${name}"` };
  }
  if (schema.additionalProperties === false) {
    const unknown = Object.keys(args).find((key) => !Object.hasOwn(properties, key));
    if (unknown !== undefined) return { ok: false, error: `unknown argument "${unknown}" (the tool accepts ${Object.keys(properties).map((k) => `"${k}"`).join(', ') || 'none'})` };
  }
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name];
    if (!isRecord(property)) continue;
    const problem = valueProblem(value, property);
    if (problem) return { ok: false, error: `argument "${name}" ${problem}` };
  }
  return { ok: true, value: args };
}

function valueProblem(value: unknown, property: Record<string, unknown>): string | undefined {
  const types = declaredTypes(property.type);
  if (types.length > 0 && !types.some((type) => matchesType(value, type))) {
    return `must be ${types.map(article).join(' or ')}, not ${describeType(value)}`;
  }
  if (Array.isArray(property.enum) && !property.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    return `must be one of ${property.enum.map((option) => JSON.stringify(option)).join(', ')}`;
  }
  return undefined;
}

function declaredTypes(type: unknown): JsonType[] {
  const list = Array.isArray(type) ? type : type === undefined ? [] : [type];
  return list.filter((t): t is JsonType => ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'].includes(t as string));
}

function matchesType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return type satisfies never;
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return article(typeof value);
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The arguments as the dialog first shows them. */
export const formatArgs = (args: Record<string, unknown>): string => JSON.stringify(args, null, 2);
