// `edgelog backup`: an online copy of the SQLite archive (SQLite only; a PostgreSQL archive is backed up
// with the server's own tools, docs/POSTGRES.md).
export { backupArchive, type BackupProgress, type BackupResult } from './sqlite/backup.js';
