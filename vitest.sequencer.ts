import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The projects whose files run longest (a real Chromium through a whole review, demo processes
 * under load, each 20-80 s alone), in the order they start. Vitest orders by project name when it
 * has no durations from an earlier run (a clean clone, as CI runs): the browser reviews started
 * about half-way through the run and set its end. Started first, the short files of the other
 * projects fill the workers around them instead of after them.
 */
export const longestRunningProjects = ['review-console-browser', 'demo'];

const rank = (file: TestSpecification): number => {
  const index = longestRunningProjects.indexOf(file.project.name);
  return index === -1 ? longestRunningProjects.length : index;
};

/** Vitest's own order (failed first, then longest first when it knows), the long projects first. */
export class LongestProjectsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: within a rank, vitest's order stays.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
