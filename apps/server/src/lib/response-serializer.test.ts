import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fastJsonSchemaOf, responseSerializerCompiler } from './response-serializer.ts';

// Issue 13: answers written by fast-json-stringify from their zod schemas (docs/decisions/0053).

const item = z.object({
  id: z.uuid(),
  name: z.string(),
  note: z.string().nullable(),
  amount: z.number(),
  owner: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  tags: z.array(z.string()),
});
const answer = z.object({ data: z.array(item), total: z.number().int() });

const id = '0b0f5f3e-6f0a-4c1e-9d55-2a4f3c1b7e10';
const row = {
  id,
  name: 'Travel',
  note: null,
  amount: 1500000.5,
  owner: { id, name: 'Baraka "B" Staff\n' },
  tags: ['hq'],
};

let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(verify: boolean, schema: z.ZodType, body: unknown): Promise<FastifyInstance> {
  app = Fastify({ logger: false });
  app.setSerializerCompiler(responseSerializerCompiler({ verify }));
  app.get('/answer', { schema: { response: { 200: schema } } }, async () => body);
  await app.ready();
  return app;
}

describe('the compiled response serializer', () => {
  it.each([false, true])(
    'writes what zod wrote, and only what the schema names (verify: %s)',
    async (verify) => {
      const extra = { ...row, password_hash: 'secret', owner: null };
      const server = await serve(verify, answer, { data: [row, extra], total: 2, internal: 1 });
      const response = await server.inject({ method: 'GET', url: '/answer' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(
        JSON.parse(JSON.stringify(answer.parse({ data: [row, extra], total: 2 }))),
      );
      expect(response.body).not.toContain('secret');
      expect(response.body).not.toContain('internal');
    },
  );

  it('writes a nullable value as its own schema, marked nullable, not as a union to settle each call', () => {
    const json = fastJsonSchemaOf(item) as {
      properties: { owner: { type: string; nullable: boolean; anyOf?: unknown } };
    };
    expect(json.properties.owner).toMatchObject({ type: 'object', nullable: true });
    expect(json.properties.owner.anyOf).toBeUndefined();
  });

  it('with verify, refuses an answer its schema does not allow, as zod did', async () => {
    const server = await serve(true, answer, { data: [{ ...row, amount: 'a lot' }], total: 1 });
    const response = await server.inject({ method: 'GET', url: '/answer' });
    expect(response.statusCode).toBe(500);
  });

  it('with verify, refuses an answer the compiled serializer would write otherwise than zod', async () => {
    // JSON Schema cannot say a transform: the compiled serializer writes the value as it is.
    const transformed = z.object({ name: z.string().transform((name) => name.toUpperCase()) });
    const verified = await serve(true, transformed, { name: 'travel' });
    expect((await verified.inject({ method: 'GET', url: '/answer' })).statusCode).toBe(500);
    await verified.close();
    const unverified = await serve(false, transformed, { name: 'travel' });
    expect((await unverified.inject({ method: 'GET', url: '/answer' })).json()).toEqual({
      name: 'travel',
    });
  });
});
