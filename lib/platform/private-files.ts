/**
 * Every file the server, the seeder or the operator CLI creates is readable by its owner only:
 * SQLite databases (plant tokens, client hashes, the session secret, signing keys), DuckDB files
 * with their write-ahead logs and spill files, demo-users.txt. The stores also create or chmod
 * their main files 0600 themselves; the umask covers the companions DuckDB and SQLite create later.
 */
export function keepFilesPrivate(): void {
  process.umask(0o077);
}
