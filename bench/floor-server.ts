/**
 * The floor: a bare Fastify server answering a fixed 17-byte JSON body, {"hello":"world"}, the
 * classic Fastify benchmark. Run beside the service in the same benchmark, it shows what this
 * machine, Node and the load generator can do at most, so the service's figures read as ratios.
 *
 *   PORT=3001 node --import tsx bench/floor-server.ts
 */
import Fastify from 'fastify';

const port = Number(process.env.PORT ?? 3001);
const host = '127.0.0.1';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
process.on('SIGINT', () => {
  void app.close().then(() => process.exit(0));
});

await app.listen({ port, host });
process.stdout.write(`floor listening on http://${host}:${port}\n`);
