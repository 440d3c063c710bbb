# shellcheck shell=bash
# Sourced by .ci/run: makes sure a PostgreSQL server runs for the store tests (test/postgres) and exports
# EDGELOG_TEST_DATABASE_URL, so that CI always runs that suite (test/postgres/support/server.ts fails the
# run when the URL given does not answer). Debian's `postgresql` package is installed when its tools are
# missing; a cluster is created or started when none answers. Quiet and unchanged when one answers.
# EDGELOG_CI_PG_PORT picks the port (5432); a URL already in EDGELOG_TEST_DATABASE_URL is kept as is.

ci_postgres() {
  if [ -n "${EDGELOG_TEST_DATABASE_URL:-}" ]; then
    export EDGELOG_TEST_DATABASE_URL
    return 0
  fi
  local port="${EDGELOG_CI_PG_PORT:-5432}"
  if ! command -v psql >/dev/null || ! command -v pg_ctlcluster >/dev/null; then
    echo "ci: installing postgresql"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  if ! pg_isready -q -h 127.0.0.1 -p "$port"; then
    # The cluster on that port (the package makes `main` at install, but may not start it where no init
    # system runs), or a new one.
    local version name status
    read -r version name status < <(pg_lsclusters -h | awk -v p="$port" '$3 == p { print $1, $2, $4; exit }') || true
    if [ -z "${version:-}" ]; then
      version="$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -V | tail -n 1)"
      name="edgelog_ci"
      echo "ci: creating PostgreSQL $version cluster $name on port $port"
      as_root pg_createcluster -q "$version" "$name" -p "$port" >/dev/null
    fi
    echo "ci: starting PostgreSQL $version cluster $name (was ${status:-new})"
    as_root pg_ctlcluster "$version" "$name" start
    local _
    for _ in $(seq 1 30); do
      pg_isready -q -h 127.0.0.1 -p "$port" && break
      sleep 1
    done
    pg_isready -q -h 127.0.0.1 -p "$port" || {
      echo "ci: PostgreSQL did not start on port $port" >&2
      return 1
    }
  fi
  local url="postgres://postgres@127.0.0.1:$port/postgres"
  if ! psql -w -q -At "$url" -c 'SELECT 1' >/dev/null 2>&1; then
    # Debian's default for TCP is a password (scram-sha-256); the tests expect what a developer's machine
    # has, trust on loopback (they set passwords the server must ignore). A CI machine's cluster only.
    local version name hba
    read -r version name < <(pg_lsclusters -h | awk -v p="$port" '$3 == p { print $1, $2; exit }') || true
    hba="/etc/postgresql/$version/$name/pg_hba.conf"
    echo "ci: PostgreSQL on port $port: trust on 127.0.0.1 ($hba)"
    as_root sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
    as_root pg_ctlcluster "$version" "$name" reload
    psql -w -q -At "$url" -c 'SELECT 1' >/dev/null || {
      echo "ci: cannot connect to PostgreSQL at $url" >&2
      return 1
    }
  fi
  export EDGELOG_TEST_DATABASE_URL="$url"
}
