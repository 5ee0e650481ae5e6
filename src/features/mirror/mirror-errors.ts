/** The ways a mirror stops that are the operator's to look at: each message names the URL. */

/** The source refused the key, answered something malformed, or never answered well. */
export class MirrorError extends Error {}

/** The source answered a status that is neither success, nor retried, nor a refused key. */
export class SourceStatusError extends MirrorError {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${method} ${url} answered ${status}${detail ? ` ${detail}` : ''}`);
  }
}
