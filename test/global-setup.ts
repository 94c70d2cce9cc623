import { execa } from 'execa';

/**
 * End-to-end tests run the real `bin/the-loop`, which loads dist/. Building once here keeps them
 * testing the code as it is now. A failed build is reported but does not stop unit tests from
 * running; the type-check step of `.ci/run` and `npm ci`'s own build fail loudly for it.
 */
export default async function setup(): Promise<void> {
  const build = await execa('npx', ['tsc', '-p', 'tsconfig.build.json'], {
    reject: false,
    all: true,
  });
  if (build.exitCode !== 0) {
    process.stderr.write(
      `\nwarning: the build failed, end-to-end tests will run an old dist/:\n${build.all}\n`,
    );
  }
}
