/**
 * The order in which `npm test` starts its files: the slow ones first (those that start real
 * processes and wait for them, the fault, fuzz and property runs), the rest after them in vitest's
 * own order (longest first when a previous run left durations in node_modules/.vite, else largest
 * first). Started last, a slow file ran alone at the end while the other worker had nothing left:
 * on a fresh clone (no durations yet) the run ended with a minute or more of one busy core.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOW_FILES = [
  /\.fault\.test\.ts$/,
  /\.fuzz\.test\.ts$/,
  /\.property\.test\.ts$/,
  /\/test\/server\//,
  /\/test\/features\/mirror\//,
  /\/test\/features\/webhooks\/delivery\.test\.ts$/,
  /\/test\/cli\/(subprocess|cli)\.test\.ts$/,
  /\/test\/db\/(routines|migrations)\.test\.ts$/,
  /\/test\/deploy\//,
];

const isSlow = (file: TestSpecification) => SLOW_FILES.some((pattern) => pattern.test(file.moduleId));

export default class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter(isSlow), ...sorted.filter((file) => !isSlow(file))];
  }
}
