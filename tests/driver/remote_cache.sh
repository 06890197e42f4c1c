#!/bin/sh
# The remote (HTTP) device object cache against a real nginx with WebDAV PUT,
# the server ccache's documentation suggests: a build in a second, empty
# local cache compiles no device code; read-only mode reads and never PUTs;
# a corrupt entry is ignored (one warning) and replaced; a closed port and a
# server killed during the build give one warning and the same result; so
# does a machine without libcurl, which gpucc loads only for a remote cache.
# Usage: remote_cache.sh GPUCC PROGRAM.mlir. Exits 77 without nginx.
set -eu
gpucc=$1 prog=$2
nginx=$(command -v nginx || echo /usr/sbin/nginx)
if ! [ -x "$nginx" ]; then
  echo "skip: nginx is not installed (Debian package nginx)"
  exit 77
fi
work=$(mktemp -d)
trap 'stop_server; rm -rf "$work"' EXIT
cd "$work"
# The server is local: no proxy from the environment may be asked.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export no_proxy='*' NO_PROXY='*'
unset GPUCC_REMOTE_CACHE_READONLY
flags="--offload-arch=sm_90,gfx90a,host -v"
. "$(dirname "$0")/../lib/check.sh"
compiled() { grep -c 's  device code for' "$1" || true; }
fetched() { grep -c 's  cached device code for' "$1" || true; }
warnings() { grep -c 'warning: remote cache' "$1" || true; }

mkdir -p srv tmp
stop_server() {
  if [ -s "$work/nginx.pid" ]; then
    kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    # The master removes its pid file when it has exited.
    i=0
    while [ -e "$work/nginx.pid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    rm -f "$work/nginx.pid"
  fi
}
# Starts nginx on a free port of 127.0.0.1 (tries random ones: a taken port
# makes nginx exit at once with an error), serving and storing under srv/.
start_server() {
  user=""
  # As root the workers would switch to a user that cannot write here.
  [ "$(id -u)" -ne 0 ] || user="user root root;"
  tries=0
  while [ $tries -lt 20 ]; do
    tries=$((tries + 1))
    port=$(shuf -i 20000-60000 -n 1)
    cat >nginx.conf <<EOF
$user
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 64; }
http {
  access_log $work/access.log;
  client_body_temp_path $work/tmp/body;
  proxy_temp_path $work/tmp/proxy;
  fastcgi_temp_path $work/tmp/fastcgi;
  uwsgi_temp_path $work/tmp/uwsgi;
  scgi_temp_path $work/tmp/scgi;
  server {
    listen 127.0.0.1:$port;
    root $work/srv;
    location / {
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
      client_max_body_size 1g;
    }
  }
}
EOF
    if "$nginx" -p "$work" -e "$work/error.log" -c "$work/nginx.conf" 2>>start.log; then
      url="http://127.0.0.1:$port"
      return 0
    fi
  done
  echo "cannot start nginx:" >&2
  cat start.log error.log >&2 2>/dev/null || true
  exit 1
}
start_server
cp "$prog" p.mlir
export GPUCC_REMOTE_CACHE="$url/shared"

# Two machines: separate local caches, one server.
GPUCC_CACHE_DIR=$work/a "$gpucc" $flags p.mlir -o app_a 2>log_a
check first_build_compiles test "$(compiled log_a)" -eq 3
check first_build_no_warning test "$(warnings log_a)" -eq 0
# ccache's subdirs layout: <url>/<2 hex digits>/<62 more>.<part>
check entries_on_server sh -c "find srv/shared -type f | grep -Eq '/shared/[0-9a-f]{2}/[0-9a-f]{62}\\.dev\$'"
GPUCC_CACHE_DIR=$work/b "$gpucc" $flags p.mlir -o app_b 2>log_b
check second_machine_no_device_job sh -c "test $(compiled log_b) -eq 0 && test $(fetched log_b) -eq 3"
check second_machine_no_warning test "$(warnings log_b)" -eq 0
check second_machine_same_result cmp app_a app_b
check remote_hit_stored_locally sh -c "find '$work/b' -name '*.dev' | grep -q ."
# -v and --cache-stats tell remote hits from local ones (the host object is
# shared too).
check second_machine_says_remote test "$(grep -c '^gpucc: cache: hit (remote): cached device code for' log_b)" -eq 3
GPUCC_CACHE_DIR=$work/b "$gpucc" --cache-stats >stats_b
check stats_remote_hits sh -c "grep -qx 'hits: 4 (local 0, remote 4)' stats_b && grep -qx 'misses: 0' stats_b &&
  grep -qx 'remote cache: $url/shared' stats_b"
GPUCC_CACHE_DIR=$work/b "$gpucc" $flags p.mlir -o app_b2 2>log_b2
check then_local test "$(grep -c '^gpucc: cache: hit (local): cached device code for' log_b2)" -eq 3
GPUCC_CACHE_DIR=$work/b "$gpucc" --cache-stats >stats_b2
check stats_local_then grep -qx 'hits: 8 (local 4, remote 4)' stats_b2

# Read-only: reads what is there, never writes.
: >access.log
GPUCC_REMOTE_CACHE_READONLY=1 GPUCC_CACHE_DIR=$work/c "$gpucc" $flags p.mlir -o app_c 2>log_c
check readonly_reads sh -c "test $(compiled log_c) -eq 0 && test $(fetched log_c) -eq 3"
GPUCC_REMOTE_CACHE=$url/ro GPUCC_REMOTE_CACHE_READONLY=1 GPUCC_CACHE_DIR=$work/d \
  "$gpucc" $flags p.mlir -o app_d 2>log_d
check readonly_miss_compiles test "$(compiled log_d)" -eq 3
check readonly_no_put sh -c "! grep -q '\"PUT ' access.log && ! test -e srv/ro"
check readonly_same_result cmp app_a app_d

# Corrupt entries: one byte of every object changed on the server.
cp -r srv/shared srv/bad
for f in $(find srv/bad -type f); do
  { head -c 200 "$f"; printf corrupt; tail -c +208 "$f"; } >x && mv x "$f"
done
GPUCC_REMOTE_CACHE=$url/bad GPUCC_CACHE_DIR=$work/e "$gpucc" $flags p.mlir -o app_e 2>log_e
check corrupt_compiles test "$(compiled log_e)" -eq 3
check corrupt_one_warning sh -c "test $(warnings log_e) -eq 1 && grep -q 'corrupt entry' log_e"
check corrupt_same_result cmp app_a app_e
# The compiled objects replaced the corrupt ones.
GPUCC_REMOTE_CACHE=$url/bad GPUCC_CACHE_DIR=$work/f "$gpucc" $flags p.mlir -o app_f 2>log_f
check corrupt_replaced sh -c "test $(compiled log_f) -eq 0 && test $(warnings log_f) -eq 0"

# The server killed while a build runs (wherever the kill lands: before the
# first GET, between requests, or at the PUTs): the build goes on.
GPUCC_REMOTE_CACHE=$url/late GPUCC_CACHE_DIR=$work/g "$gpucc" $flags p.mlir -o app_g 2>log_g &
build=$!
sleep 0.2
if kill -0 $build 2>/dev/null; then echo "info: server killed during the build"; fi
stop_server
rc=0
wait $build || rc=$?
check killed_server_builds sh -c "test $rc -eq 0 && cmp -s app_a app_g"
check killed_server_at_most_one_warning test "$(warnings log_g)" -le 1

# No server at all (the port is closed now): one warning, same result.
start=$(date +%s)
GPUCC_CACHE_DIR=$work/h "$gpucc" $flags p.mlir -o app_h 2>log_h
took=$(($(date +%s) - start))
check closed_port_compiles test "$(compiled log_h)" -eq 3
check closed_port_one_warning test "$(warnings log_h)" -eq 1
check closed_port_same_result cmp app_a app_h
check closed_port_no_wait test "$took" -lt 10
# libcurl is loaded only for a remote cache, and a machine without it
# builds all the same (one warning).
GPUCC_CURL_LIBRARY=$work/no-libcurl.so GPUCC_CACHE_DIR=$work/i "$gpucc" $flags p.mlir -o app_i 2>log_i
check no_libcurl_compiles sh -c "test $(compiled log_i) -eq 3 && cmp -s app_a app_i"
check no_libcurl_one_warning sh -c "test $(warnings log_i) -eq 1 && grep -q 'libcurl' log_i"
env -u GPUCC_REMOTE_CACHE LD_DEBUG=files GPUCC_CACHE_DIR=$work/j "$gpucc" $flags p.mlir -o app_j 2>log_j
check no_remote_no_libcurl sh -c "grep -q 'file=libarchive' log_j && ! grep -q 'file=libcurl' log_j"
# Local first: a machine that has everything does not ask the server.
GPUCC_CACHE_DIR=$work/b "$gpucc" $flags p.mlir -o app_b2 2>log_b2
check local_first sh -c "test $(compiled log_b2) -eq 0 && test $(warnings log_b2) -eq 0"

checks_done
