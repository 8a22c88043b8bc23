import fc from 'fast-check';

/**
 * The part of JSON Schema (OpenAPI 3.0 flavour) that fastify-type-provider-zod writes for the
 * shared zod request schemas: enough to generate bodies and to tell when a body is refused.
 */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  default?: unknown;
};

/** Real values of the fixtures, so generated bodies reach the services and not only the 404s. */
export type FuzzHints = {
  /** Ids of budgets, requests, reviews, retirements and their reviews. */
  ids: string[];
  /** Ids of users the fuzz may edit, lock or restrict: never the acting users. */
  userIds: string[];
  emails: string[];
  budgetCodes: string[];
  dates: string[];
  /**
   * Values that a refinement wants, by field name (a mode_of_service every purpose takes, an empty
   * file list): chosen most of the time, where the field's schema allows them.
   */
  byName: Record<string, unknown[]>;
};

const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((code) => String.fromCharCode(code));

/** Mostly readable text, sometimes any code point (NUL included), sometimes lone surrogates. */
function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const bounds = { minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)) };
  return fc.oneof(
    { weight: 12, arbitrary: fc.string({ ...bounds, unit: 'grapheme' }) },
    { weight: 2, arbitrary: fc.string({ ...bounds, unit: 'binary' }) },
    {
      weight: 1,
      arbitrary: fc.string({
        ...bounds,
        unit: fc.oneof(fc.constant('\u0000'), loneSurrogate, fc.constant('a')),
      }),
    },
  );
}

function withHints(hinted: readonly string[], other: fc.Arbitrary<string>): fc.Arbitrary<string> {
  if (hinted.length === 0) return other;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...hinted) },
    { weight: 1, arbitrary: other },
  );
}

function stringArbitrary(schema: JsonSchema, name: string, hints: FuzzHints): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 200;
  if (schema.format === 'uuid') {
    return withHints(/user/.test(name) ? hints.userIds : hints.ids, fc.uuid({ version: 4 }));
  }
  if (schema.pattern !== undefined) {
    const pattern = new RegExp(schema.pattern);
    const matching = [...hints.dates, ...hints.budgetCodes].filter((value) => pattern.test(value));
    return withHints(matching, fc.stringMatching(pattern, { size: 'small' }));
  }
  if (/email/.test(name)) return withHints(hints.emails, fc.emailAddress());
  if (/date/.test(name)) return withHints(hints.dates, text(minLength, maxLength));
  if (name === 'budget_code') return withHints(hints.budgetCodes, text(minLength, maxLength));
  return text(minLength, maxLength);
}

function exclusive(bound: boolean | number | undefined, value: number | undefined): boolean {
  return bound === true || (typeof bound === 'number' && bound === value);
}

function numberArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const min =
    typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : schema.minimum;
  const max =
    typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : schema.maximum;
  const isInteger = schema.type === 'integer';
  if (isInteger) {
    return fc.integer({
      min: Math.max(Math.ceil(min ?? -1e9), Number.MIN_SAFE_INTEGER),
      max: Math.min(Math.floor(max ?? 1e9), Number.MAX_SAFE_INTEGER),
    });
  }
  const range = {
    min: min ?? -1e15,
    max: max ?? 1e15,
    minExcluded: exclusive(schema.exclusiveMinimum, min),
    maxExcluded: exclusive(schema.exclusiveMaximum, max),
    noNaN: true,
  };
  // Amounts are mostly whole cents; any double in range now and then.
  const cents = fc
    .integer({ min: 1, max: 10_000_000_00 })
    .map((value) => value / 100)
    .filter((value) => value > range.min && value < range.max);
  return fc.oneof({ weight: 6, arbitrary: cents }, { weight: 1, arbitrary: fc.double(range) });
}

function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/**
 * Values that mostly satisfy the schema (the zod refinements a JSON Schema cannot say, such as two
 * decimals or a real calendar date, are not guaranteed), with real fixture ids and codes mixed in.
 */
export function arbitraryFor(
  schema: JsonSchema,
  hints: FuzzHints,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const generated = baseArbitrary(schema, hints, name, depth);
  const named = (hints.byName[name] ?? []).filter((value) => !refusalOf(schema, value));
  const base =
    named.length > 0 && depth > 0
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...named) },
          { weight: 1, arbitrary: generated },
        )
      : generated;
  return schema.nullable
    ? fc.oneof({ weight: 5, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) })
    : base;
}

function baseArbitrary(
  schema: JsonSchema,
  hints: FuzzHints,
  name: string,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches && branches.length > 0) {
    return fc.oneof(...branches.map((branch) => arbitraryFor(branch, hints, name, depth + 1)));
  }
  const [type] = typesOf(schema);
  switch (type) {
    case 'string':
      return stringArbitrary(schema, name, hints);
    case 'number':
    case 'integer':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayArbitrary(schema, hints, name, depth);
    case 'object':
      return objectArbitrary(schema, hints, depth);
    default:
      // No type: zod's unknown (a field the server ignores, or rows it checks one by one).
      return depth > 3 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

function arrayArbitrary(
  schema: JsonSchema,
  hints: FuzzHints,
  name: string,
  depth: number,
): fc.Arbitrary<unknown[]> {
  const tuple = schema.prefixItems ?? (Array.isArray(schema.items) ? schema.items : undefined);
  if (tuple) return fc.tuple(...tuple.map((item) => arbitraryFor(item, hints, name, depth + 1)));
  const items = (schema.items as JsonSchema | undefined) ?? {};
  const minLength = schema.minItems ?? 0;
  return fc.array(arbitraryFor(items, hints, name, depth + 1), {
    minLength,
    maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 4, 4)),
  });
}

function objectArbitrary(
  schema: JsonSchema,
  hints: FuzzHints,
  depth: number,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  if (Object.keys(properties).length === 0) {
    if (schema.additionalProperties === false) return fc.constant({});
    return fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), {
      maxKeys: 4,
    });
  }
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [
      key,
      arbitraryFor(property, hints, key, depth + 1),
    ]),
  );
  return fc.record(model, { requiredKeys: schema.required ?? [] });
}

/** Equality of a schema's enum or const option (a primitive here) and a parsed value. */
function sameJson(option: unknown, value: unknown): boolean {
  // Never stringify the value: it may be 5,000 levels deep.
  if (typeof option !== 'object' || option === null) return option === value;
  return typeof value === 'object' && JSON.stringify(option) === JSON.stringify(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Why the documented schema refuses a parsed body, or undefined when it may be accepted. Sound in
 * one direction only: a refusal here is a refusal by zod (the schema was written from it), but a
 * body passed here may still fail a zod refinement.
 */
export function refusalOf(schema: JsonSchema, value: unknown, path = 'body'): string | undefined {
  if (value === null && (schema.nullable || typesOf(schema).includes('null'))) return undefined;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const reasons = branches.map((branch) => refusalOf(branch, value, path));
    if (reasons.some((reason) => reason === undefined)) return undefined;
    return `${path} matches no alternative (${reasons.join('; ')})`;
  }
  for (const part of schema.allOf ?? []) {
    const reason = refusalOf(part, value, path);
    if (reason) return reason;
  }
  if (schema.const !== undefined && !sameJson(schema.const, value))
    return `${path} is not the constant`;
  if (schema.enum && !schema.enum.some((option) => sameJson(option, value))) {
    return `${path} is not one of the allowed values`;
  }
  const types = typesOf(schema);
  if (types.length === 0) return undefined;
  for (const type of types) {
    const reason = refusalAs(type, schema, value, path);
    if (reason === undefined) return undefined;
    if (types.length === 1) return reason;
  }
  return `${path} is none of ${types.join(', ')}`;
}

function refusalAs(
  type: string,
  schema: JsonSchema,
  value: unknown,
  path: string,
): string | undefined {
  switch (type) {
    case 'string': {
      if (typeof value !== 'string') return `${path} is not a string`;
      if (schema.minLength !== undefined && value.length < schema.minLength)
        return `${path} too short`;
      if (schema.maxLength !== undefined && value.length > schema.maxLength)
        return `${path} too long`;
      if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
        return `${path} does not match ${schema.pattern}`;
      }
      return undefined;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value))
        return `${path} is not a finite number`;
      if (type === 'integer' && !Number.isInteger(value)) return `${path} is not an integer`;
      return numberRangeRefusal(schema, value, path);
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${path} is not a boolean`;
    case 'null':
      return value === null ? undefined : `${path} is not null`;
    case 'array':
      return arrayRefusal(schema, value, path);
    case 'object':
      return objectRefusal(schema, value, path);
    default:
      return undefined;
  }
}

function numberRangeRefusal(schema: JsonSchema, value: number, path: string): string | undefined {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) return `${path} too small`;
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) return `${path} too large`;
  if (minimum !== undefined && (exclusiveMinimum === true ? value <= minimum : value < minimum)) {
    return `${path} too small`;
  }
  if (maximum !== undefined && (exclusiveMaximum === true ? value >= maximum : value > maximum)) {
    return `${path} too large`;
  }
  return undefined;
}

function arrayRefusal(schema: JsonSchema, value: unknown, path: string): string | undefined {
  if (!Array.isArray(value)) return `${path} is not an array`;
  if (schema.minItems !== undefined && value.length < schema.minItems)
    return `${path} too few items`;
  if (schema.maxItems !== undefined && value.length > schema.maxItems)
    return `${path} too many items`;
  const tuple = schema.prefixItems ?? (Array.isArray(schema.items) ? schema.items : undefined);
  for (const [index, item] of value.entries()) {
    const itemSchema = tuple ? tuple[index] : (schema.items as JsonSchema | undefined);
    if (!itemSchema) continue;
    const reason = refusalOf(itemSchema, item, `${path}[${index}]`);
    if (reason) return reason;
  }
  return undefined;
}

function objectRefusal(schema: JsonSchema, value: unknown, path: string): string | undefined {
  if (!isObject(value)) return `${path} is not an object`;
  for (const key of schema.required ?? []) {
    if (!Object.hasOwn(value, key) || value[key] === undefined) return `${path}.${key} is missing`;
  }
  const properties = schema.properties ?? {};
  for (const [key, item] of Object.entries(value)) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (property) {
      const reason = refusalOf(property, item, `${path}.${key}`);
      if (reason) return reason;
    } else if (schema.additionalProperties === false) {
      return `${path}.${key} is not allowed`;
    } else if (isObject(schema.additionalProperties)) {
      const reason = refusalOf(schema.additionalProperties, item, `${path}.${key}`);
      if (reason) return reason;
    }
  }
  return undefined;
}
