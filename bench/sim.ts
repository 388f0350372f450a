/**
 * Benchmark simulator child: serves the v2 API simulator on a loopback port in its own process (so
 * its CPU is not counted in the exporter's), prints `{"baseUrl","clientId","clientSecret"}` as one
 * JSON line, and exits when its stdin closes. Argument: JSON `{postsPerDay, latencyMs, limitCap}`.
 */
import { startSimulator } from '#simulator/server';

const opts = JSON.parse(process.argv[2] ?? '{}') as {
  postsPerDay: number;
  latencyMs: number;
  limitCap?: number;
};
const sim = await startSimulator({
  seed: 7,
  scale: { postsPerDay: opts.postsPerDay },
  latencyMs: opts.latencyMs,
  ...(opts.limitCap ? { faults: { limitCap: opts.limitCap } } : {}),
});
process.stdout.write(`${JSON.stringify({ baseUrl: sim.baseUrl, ...sim.credentials })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  const cpu = process.cpuUsage();
  // the simulator's own CPU, so the results can show what serving cost outside the exporter
  process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
  void sim.close().finally(() => process.exit(0));
});
