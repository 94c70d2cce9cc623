import { execa } from 'execa';

/**
 * End-to-end tests run the real `bin/the-loop`, which loads dist/. Building once here keeps them
 * testing the code as it is now, not whatever an earlier build left behind.
 */
export default async function setup(): Promise<void> {
  await execa('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
