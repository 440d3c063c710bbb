// PM2: `pm2 start ecosystem.config.cjs` from edgelog's directory (docs/OPERATIONS.md: Running it unattended). One
// process per SQLite file (fork mode, one instance); scale out with more `edgelog run` processes on other
// archives or more worker concurrency, not PM2 cluster mode.
const { join, resolve } = require('node:path');

// The configuration file, passed as --config so that a missing one is an error naming it rather than a
// run on the defaults: EDGELOG_CONFIG as set in the shell that runs `pm2 start` (relative to that shell's
// directory), else edgelog.config.json beside this file. That shell's environment reaches the worker too
// (EDGELOG_ACCESS_KEY, REDIS_URL, EDGELOG_DATABASE_URL); `pm2 restart --update-env` takes a new one.
const config = process.env.EDGELOG_CONFIG
  ? resolve(process.env.EDGELOG_CONFIG)
  : join(__dirname, 'edgelog.config.json');

module.exports = {
  apps: [
    {
      name: 'edgelog',
      script: 'bin/edgelog.js',
      args: ['--config', config, 'run'],
      cwd: __dirname,
      exec_mode: 'fork',
      instances: 1,
      // PM2 stops with SIGINT, then SIGKILL after kill_timeout (default 1.6 s). edgelog finishes the
      // pages in hand within worker.shutdownTimeout (20 s by default): give it more than that.
      kill_timeout: 30_000,
      autorestart: true,
      // Back off when it crash-loops (e.g. Redis down), instead of restarting as fast as it can.
      exp_backoff_restart_delay: 1_000,
      // The same heap bound as bin/edgelog.js's shebang (PM2 starts the script with its own node).
      node_args: '--max-old-space-size=1024 --max-semi-space-size=8',
      max_memory_restart: '1G',
      // The log below error on stdout (PM2's out file), errors on stderr (its error file, shown in red);
      // without it every line went to the error file.
      env: { NODE_ENV: 'production', EDGELOG_LOG_SPLIT: '1' },
    },
  ],
};
