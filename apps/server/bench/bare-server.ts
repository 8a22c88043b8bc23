/**
 * The floor under an API call on this machine, for the load benchmark (load.ts, issue 13): Fastify 5
 * and `pg`, nothing else, as the issue's own yardstick was written ("the same shape of call written
 * bare"). It is handed each read's SELECT statements, as the app sent them (captured by load.ts),
 * and answers `GET /api/v1/calls/{n}` by sending call n's statements, prepared under names, on a
 * pool of the app's size, then the last statement's rows as JSON. No session, no validation, no
 * schema, no log line: what HTTP, the driver and JSON cost a call here, for the same SQL.
 *
 * Environment: DATABASE_URL, PORT, POOL_SIZE. Prints `{"msg":"bare server ready","pid":…}` once
 * it listens on 127.0.0.1.
 */
import Fastify from 'fastify';
import pg from 'pg';

type Statement = { query: string; params: unknown[] };
type Call = { statements: Statement[]; inTransaction: boolean };

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_SIZE) || 8,
});
const calls: Call[] = [];
const app = Fastify({ logger: false });

app.post('/calls', async (request) => {
  calls.push(request.body as Call);
  return { id: calls.length - 1 };
});

app.get('/api/v1/calls/:id', async (request, reply) => {
  const id = Number((request.params as { id: string }).id);
  const call = calls[id];
  if (!call) return reply.code(404).send({ error: 'no such call' });
  const client = await pool.connect();
  try {
    if (call.inTransaction) await client.query('BEGIN');
    let rows: unknown[] = [];
    for (const [index, statement] of call.statements.entries()) {
      const result = await client.query({
        name: `bare_${id}_${index}`,
        text: statement.query,
        values: statement.params,
      });
      rows = result.rows;
    }
    if (call.inTransaction) await client.query('COMMIT');
    return { data: rows };
  } catch (error) {
    if (call.inTransaction) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
});

const shutdown = () => {
  void app
    .close()
    .then(() => pool.end())
    .finally(() => process.exit(0));
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
console.log(JSON.stringify({ msg: 'bare server ready', pid: process.pid }));
