import { doctorReport, formatDoctorLines } from '../../doctor/format-doctor-report.js';
import { runDoctor } from '../../doctor/run-doctor.js';
import type { CommandHandler } from '../command-context.js';
import { readVersion } from '../read-version.js';

/** `the-loop doctor`: every check, one line each; exit 1 when any fails. Works without serve. */
export const runDoctorCommand: CommandHandler = async (context) => {
  const { io } = context;
  const checks = await runDoctor({
    configFile: context.configFile,
    env: io.env,
    cwd: io.cwd,
    version: await readVersion(),
  });
  const report = doctorReport(checks);
  if (context.json) context.printJson(report);
  else context.print(formatDoctorLines(checks));
  return report.ok ? 0 : 1;
};
