import { execa } from 'execa';

/**
 * End-to-end tests run the real `bin/the-loop`, which loads dist/. Building once here keeps them
 * testing the code as it is now. A failed build stops the run: otherwise the end-to-end tests would
 * pass or fail against an old dist/ and say nothing of the code in src/.
 */
export default async function setup(): Promise<void> {
  const build = await execa('npx', ['tsc', '-p', 'tsconfig.build.json'], {
    reject: false,
    all: true,
  });
  if (build.exitCode !== 0) {
    throw new Error(
      'the build (tsc -p tsconfig.build.json) failed, so no test runs: end-to-end tests would ' +
        `run an old dist/. Fix the errors below, or run \`npm run build\` to see them:\n${build.all}`,
    );
  }
}
