import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson, { type Schema as FastJsonSchema } from 'fast-json-stringify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A JSON Schema node as zod writes it, walked to make it fast-json-stringify's. */
type Node = { [key: string]: unknown };

/**
 * The JSON Schema of a response's zod schema, in the words fast-json-stringify compiles fastest:
 * zod writes a nullable value as `anyOf: [value, {type: 'null'}]`, which fast-json-stringify
 * would settle on every call by validating the value against each branch; here it is the value's
 * own schema marked `nullable`. Anything JSON Schema cannot say (a transform) becomes `{}`, which
 * fast-json-stringify writes with JSON.stringify.
 */
export function fastJsonSchemaOf(schema: z.ZodType): Node {
  const json = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
  }) as Node;
  return withNullableMarked(json) as Node;
}

function withNullableMarked(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullableMarked);
  if (node === null || typeof node !== 'object') return node;
  const walked: Node = {};
  for (const [key, value] of Object.entries(node)) walked[key] = withNullableMarked(value);
  const { anyOf } = walked;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const isNull = (branch: Node) => branch.type === 'null' && Object.keys(branch).length === 1;
    const [first, second] = anyOf as [Node, Node];
    const value = isNull(second) ? first : isNull(first) ? second : undefined;
    if (value && typeof value.type === 'string' && !('$ref' in value)) {
      const rest = { ...walked };
      delete rest.anyOf;
      return { ...rest, ...value, nullable: true };
    }
  }
  return walked;
}

/**
 * Fastify's serializer for routes whose responses are zod schemas (docs/decisions/0053): each is
 * compiled once by fast-json-stringify from its JSON Schema, which writes only the properties the
 * schema names, as zod's parse kept only those. zod's parse of every answer, with
 * JSON.stringify, was a tenth of a list's server CPU under load (bench/results.md).
 *
 * With `verify` (tests, the browser tests' server, VERIFY_RESPONSES=1), every answer is also
 * parsed by its zod schema, as before: one that does not match it is refused as it was
 * (ResponseSerializationError, a 500), and one that fast-json-stringify writes otherwise than
 * zod's parse and JSON.stringify would is an error too.
 */
export function responseSerializerCompiler(options: {
  verify: boolean;
}): FastifySerializerCompiler<z.ZodType | { properties: z.ZodType }> {
  return ({ schema: maybeSchema, method, url }) => {
    const schema = maybeSchema instanceof z.ZodType ? maybeSchema : maybeSchema.properties;
    const stringify = fastJson(fastJsonSchemaOf(schema) as unknown as FastJsonSchema);
    if (!options.verify) return (data) => stringify(data);
    return (data) => {
      const checked = schema.safeParse(data);
      if (!checked.success) {
        throw new ResponseSerializationError(method, url, { cause: checked.error });
      }
      const text = stringify(data);
      const expected = JSON.stringify(checked.data);
      if (!isDeepStrictEqual(JSON.parse(text), JSON.parse(expected))) {
        throw new Error(
          `${method} ${url}: the compiled serializer wrote ${text.slice(0, 300)} where zod wrote ${expected.slice(0, 300)}`,
        );
      }
      return text;
    };
  };
}
