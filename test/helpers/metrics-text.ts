/** Reading Prometheus text exposition in tests. */

/** The value of one sample line (`name{labels} value`) with exactly these labels; 0 when it is not there (yet). */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = match[2] ? match[2].split(/,(?=[a-z_]+=")/) : [];
    if (have.length === wanted.length && wanted.every((pair) => have.includes(pair))) return Number(match[3]);
  }
  return 0;
}
