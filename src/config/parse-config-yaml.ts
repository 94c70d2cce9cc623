import { parseDocument, type YAMLError } from 'yaml';
import { ConfigError, type ConfigIssue } from './config-error.js';

/**
 * Parses the text of a config file. Refuses (ConfigError, code `yaml_syntax`, naming the line)
 * syntax errors, duplicate keys, several documents and custom tags such as `!!js/function`, which
 * the yaml package would otherwise turn into plain strings with only a warning.
 */
export function parseConfigYaml(text: string, configPath: string): unknown {
  // logLevel 'error' keeps the library from printing warnings of its own; 'silent' would also
  // drop the error for a second document.
  const document = parseDocument(text, {
    prettyErrors: true,
    uniqueKeys: true,
    logLevel: 'error',
  });
  const problems = [...document.errors, ...document.warnings];
  if (problems.length > 0) throw new ConfigError(configPath, problems.map(yamlIssue));
  try {
    // The alias limit stops a "billion laughs" file from expanding without bound.
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(configPath, [
      { path: '', code: 'yaml_syntax', message: `YAML could not be read: ${reason}` },
    ]);
  }
}

function yamlIssue(problem: YAMLError): ConfigIssue {
  // prettyErrors appends " at line L, column C:" and an excerpt; keep the first sentence only.
  const summary = (problem.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
  const position = problem.linePos?.[0];
  const where = position === undefined ? '' : ` at line ${position.line}, column ${position.col}`;
  return {
    path: '',
    code: 'yaml_syntax',
    message: `YAML error${where}: ${summary}; fix the file there`,
  };
}
