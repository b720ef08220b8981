/** Arguments checked against a tool's input schema, one compiled validator per catalog entry. */
import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import { AppFailure } from '../app-error';
import { plainSchemaErrors } from '../diagnosis/call-diagnosis';
import { schemaValidator } from '../mcp/schema-validator';

/** A catalog entry never changes once built (a new list builds new entries), so its validator is compiled once. */
const validators = new WeakMap<CatalogTool, JsonSchemaValidator<unknown>>();

/**
 * Throws the exact failure: `<what> do not match its input schema: <Ajv's message>`, or the schema itself is broken.
 * `what` names the arguments, and is only asked when they fail (every tool call passes through here).
 */
export function checkArguments(tool: CatalogTool, args: Record<string, unknown>, what: (tool: CatalogTool) => string): void {
  let validate = validators.get(tool);
  if (!validate) {
    try {
      validate = schemaValidator.getValidator(tool.inputSchema as JsonSchemaType);
    } catch (error) {
      throw new AppFailure('conflict', `the input schema of tool "${tool.name}" on server "${tool.server}" cannot be checked: ${error instanceof Error ? error.message : String(error)}`);
    }
    validators.set(tool, validate);
  }
  const check = validate(args);
  if (!check.valid) throw new AppFailure('invalid_input', `${what(tool)} do not match its input schema: ${plainSchemaErrors(check.errorMessage ?? '')}`);
}
