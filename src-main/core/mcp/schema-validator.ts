/**
 * One JSON Schema validator for the process, compiling each distinct schema once. Left to itself the
 * SDK gives every Client an Ajv of its own (with its formats, ~0.2 MB), compiles every tool's output
 * schema again on each tools/list (Ajv caches compiled code by schema object, and each list parses new
 * objects) and keeps every copy for the client's life; ten servers of one kind compiled the same schema
 * twenty times. Here schemas are keyed by their text, so equal schemas share one compiled function.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

/** Distinct schemas kept before starting over (a fresh Ajv; the old one goes once nothing uses its validators). */
const MAX_SCHEMAS = 5_000;

export class SharedSchemaValidator implements jsonSchemaValidator {
  private ajv = new AjvJsonSchemaValidator();
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  constructor(private readonly maxSchemas = MAX_SCHEMAS) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.compiled.get(key);
    if (!validator) {
      if (this.compiled.size >= this.maxSchemas) this.startOver();
      // Ajv keeps a schema with an $id under that id: two servers' different schemas with one $id must not meet in one Ajv.
      validator = '$id' in schema ? new AjvJsonSchemaValidator().getValidator(schema) : this.ajv.getValidator(schema);
      this.compiled.set(key, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }

  /** How many distinct schemas are compiled (for tests). */
  get size(): number {
    return this.compiled.size;
  }

  private startOver(): void {
    this.compiled.clear();
    this.ajv = new AjvJsonSchemaValidator();
  }
}

/** The one every Client, the call path's argument check and the elicitation form check use. */
export const schemaValidator = new SharedSchemaValidator();
