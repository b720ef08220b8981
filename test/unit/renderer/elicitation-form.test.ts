import { describe, expect, it } from 'vitest';
import { formAnswer, formFields, initialValues } from '../../../src-renderer/lib/chat/elicitation-form';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', description: 'as on your passport', minLength: 2 },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    height: { type: 'number' },
    subscribe: { type: 'boolean', default: true },
    color: { type: 'string', enum: ['red', 'green'], enumNames: ['Red', 'Green'], default: 'green' },
    size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
    tags: { type: 'array' },
  },
  required: ['name', 'age'],
};

describe('formFields', () => {
  it('turns each property into a field of its kind, with titles, descriptions and required marks', () => {
    const fields = formFields(schema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['name', 'string', true],
      ['age', 'integer', true],
      ['height', 'number', false],
      ['subscribe', 'boolean', false],
      ['color', 'enum', false],
      ['size', 'enum', false],
      ['tags', 'unsupported', false],
    ]);
    expect(fields[0]).toMatchObject({ label: 'Your name', description: 'as on your passport', minLength: 2 });
    expect(fields[4]).toMatchObject({ options: [{ value: 'red', label: 'Red' }, { value: 'green', label: 'Green' }] });
    expect(fields[5]).toMatchObject({ options: [{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }] });
  });

  it('has no fields for a schema without properties', () => {
    expect(formFields({ type: 'object' })).toEqual([]);
  });
});

describe('initialValues', () => {
  it('prefills the defaults main sent and leaves the rest empty', () => {
    const fields = formFields(schema);
    expect(initialValues(fields, { subscribe: true, color: 'green', age: 30 })).toEqual({
      name: '',
      age: '30',
      height: '',
      subscribe: true,
      color: 'green',
      size: '',
      tags: '',
    });
  });
});

describe('formAnswer', () => {
  const fields = formFields({ ...schema, properties: { ...schema.properties, tags: undefined } });

  it('types each value: numbers as numbers, booleans as booleans, empty optional fields left out', () => {
    expect(formAnswer(fields, { name: 'Ada', age: '36', height: '1.7', subscribe: false, color: 'red', size: '' })).toEqual({
      ok: true,
      content: { name: 'Ada', age: 36, height: 1.7, subscribe: false, color: 'red' },
    });
  });

  it('names every field at fault at once', () => {
    expect(formAnswer(fields, { name: 'A', age: '2.5', height: 'tall', subscribe: true, color: 'blue', size: '' })).toEqual({
      ok: false,
      errors: {
        name: 'Your name needs at least 2 characters',
        age: 'age must be a whole number',
        height: 'height must be a number',
        color: 'color must be one of red, green',
      },
    });
  });

  it('reports missing required fields and bounds', () => {
    expect(formAnswer(fields, { name: '', age: '200', subscribe: false })).toEqual({
      ok: false,
      errors: { name: 'Your name is required', age: 'age must be at most 150' },
    });
  });
});
