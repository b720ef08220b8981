import { describe, expect, it } from 'vitest';
import { formFields } from '../../../src-renderer/lib/chat/elicitation-form';
import { schemaDefaults } from '../../../src-preload/contract/values';
import { argsTemplate, formFits } from '../../../src-renderer/lib/servers/tool-run';

const schema = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    count: { type: 'integer', default: 3 },
    ratio: { type: 'number' },
    loud: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    options: { type: 'object' },
    either: { type: ['string', 'null'] },
    anything: {},
  },
  required: ['message', 'count', 'ratio', 'loud', 'tags', 'options', 'either', 'anything'],
};

describe('argsTemplate', () => {
  it('starts from the defaults and gives each required key an empty value of its type', () => {
    expect(argsTemplate(schema)).toEqual({ message: '', count: 3, ratio: 0, loud: false, tags: [], options: {}, either: '', anything: null });
  });

  it('leaves optional keys without a default out', () => {
    expect(argsTemplate({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string', default: 'x' } } })).toEqual({ b: 'x' });
  });

  it('is empty for a schema with no properties', () => {
    expect(argsTemplate({ type: 'object' })).toEqual({});
  });
});

describe('schemaDefaults', () => {
  it('takes each property default, falsy ones included', () => {
    expect(schemaDefaults({ properties: { a: { default: 0 }, b: { default: false }, c: { type: 'string' } } })).toEqual({ a: 0, b: false });
  });
});

describe('formFits', () => {
  it('fits flat primitive schemas and not nested objects or free arrays', () => {
    expect(formFits(formFields({ properties: { m: { type: 'string' }, n: { type: 'number' }, c: { enum: ['a', 'b'] } } }))).toBe(true);
    expect(formFits(formFields({ properties: {} }))).toBe(true);
    expect(formFits(formFields({ properties: { o: { type: 'object' } } }))).toBe(false);
    expect(formFits(formFields({ properties: { t: { type: 'array', items: { type: 'string' } } } }))).toBe(false);
  });
});
