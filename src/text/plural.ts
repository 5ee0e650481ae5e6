/**
 * A count and its noun for people: "1 branch", "4 branches", "12,000 offers". Every count the
 * command line prints goes through it, so none reads "1 branches".
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
