import { execa } from 'execa';

/**
 * The browser tests run the real `bin/the-loop` (dist/) and load the compiled browser modules
 * (dist/dashboard-client/): both builds run first, and a failed one stops the tier.
 */
export default async function setup(): Promise<void> {
  const build = await execa('npm', ['run', 'build'], { reject: false, all: true });
  if (build.exitCode !== 0) throw new Error(`npm run build failed:\n${build.all}`);
}
