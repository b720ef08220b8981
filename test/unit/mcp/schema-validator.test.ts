import { describe, expect, it } from 'vitest';
import { SharedSchemaValidator } from '../../../src-main/core/mcp/schema-validator';

const weather = () => ({ type: 'object' as const, properties: { temperature: { type: 'number' as const }, conditions: { type: 'string' as const } }, required: ['temperature', 'conditions'] });

describe('SharedSchemaValidator', () => {
  it('compiles equal schemas once, whichever object brings them (a new list, another server)', () => {
    const shared = new SharedSchemaValidator();
    const first = shared.getValidator(weather());
    const again = shared.getValidator(weather());
    expect(again).toBe(first);
    expect(shared.size).toBe(1);
    shared.getValidator({ ...weather(), required: ['temperature'] });
    expect(shared.size).toBe(2);
  });

  it("says what Ajv says about a value that does not match", () => {
    const check = new SharedSchemaValidator().getValidator(weather());
    expect(check({ temperature: 21, conditions: 'sunny' })).toEqual({ valid: true, data: { temperature: 21, conditions: 'sunny' }, errorMessage: undefined });
    expect(check({ temperature: 'warm' })).toEqual({ valid: false, data: undefined, errorMessage: "data must have required property 'conditions', data/temperature must be number" });
  });

  it('keeps two different schemas that claim the same $id apart', () => {
    const shared = new SharedSchemaValidator();
    const numbers = shared.getValidator({ $id: 'https://example.test/x.json', type: 'object', properties: { x: { type: 'number' } } });
    const strings = shared.getValidator({ $id: 'https://example.test/x.json', type: 'object', properties: { x: { type: 'string' } } });
    expect(numbers({ x: 1 }).valid).toBe(true);
    expect(numbers({ x: 'a' }).valid).toBe(false);
    expect(strings({ x: 'a' }).valid).toBe(true);
    expect(strings({ x: 1 }).valid).toBe(false);
  });

  it('starts over past its limit of distinct schemas, and still checks', () => {
    const shared = new SharedSchemaValidator(2);
    shared.getValidator({ type: 'string' });
    shared.getValidator({ type: 'number' });
    const check = shared.getValidator(weather());
    expect(shared.size).toBe(1);
    expect(check({ temperature: 1, conditions: 'rain' }).valid).toBe(true);
    expect(shared.getValidator({ type: 'string' })('a').valid).toBe(true);
  });
});
