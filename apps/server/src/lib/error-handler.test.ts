import Fastify from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { registerErrorHandler } from './error-handler.ts';

/** A bare app whose routes throw what a route, the validator or the database can throw. */
async function appThrowing(error: () => unknown) {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.post('/throw', async () => {
    throw error();
  });
  await app.ready();
  onTestFinished(() => app.close());
  return app;
}

function databaseError(code: string): Error {
  // As Drizzle wraps it: the node-postgres error, with its SQLSTATE, is the cause.
  return new Error('Failed query', { cause: Object.assign(new Error('pg'), { code }) });
}

describe('error handler: bad input is never a 500 (decisions §2)', () => {
  it.each([
    ['22021', 'a NUL byte', /NUL byte/],
    ['22P05', 'an untranslatable character', /cannot be stored/],
    ['22007', 'an impossible date', /date or time/],
  ])('answers 400 to SQLSTATE %s (%s)', async (code, _name, message) => {
    const app = await appThrowing(() => databaseError(code));
    const response = await app.inject({ method: 'POST', url: '/throw' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(message);
  });

  it('answers 400 when the validator itself throws on the input', async () => {
    const app = await appThrowing(() =>
      Object.assign(new RangeError('Maximum call stack size exceeded'), {
        statusCode: 500,
        code: 'FST_ERR_VALIDATION',
        validationContext: 'body',
      }),
    );
    const response = await app.inject({ method: 'POST', url: '/throw' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Invalid input: the body could not be checked.');
  });

  it('answers 400 to a multipart body that breaks off', async () => {
    const app = await appThrowing(() => new Error('Unexpected end of multipart data'));
    const response = await app.inject({ method: 'POST', url: '/throw' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('The multipart body is malformed.');
  });

  it('still answers 500, without details, to a failure of its own', async () => {
    const app = await appThrowing(() => databaseError('40P01'));
    const response = await app.inject({ method: 'POST', url: '/throw' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: 'Something went wrong on our side. Please try again.',
    });
  });
});
