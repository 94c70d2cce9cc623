/** A file an agent attaches to what it posts (`the-loop post --file`), read once by serve. */
export interface OutgoingFile {
  /** The file's base name, as people see it. */
  readonly name: string;
  readonly content: Buffer;
}
