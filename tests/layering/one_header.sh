#!/bin/sh
# one_header.sh SRC FOLDER HEADER: outside SRC/FOLDER, sources include
# FOLDER's headers only through HEADER (lowering/host/ is the host backend
# behind host_backend.h; its other headers are its own). Lists each include
# of another header of FOLDER and exits 1 when there is one.
set -eu
src=$1 folder=$2 header=$3
name=$(basename "$folder")
bad=$(grep -rnE "#include \"([^\"]*/)?$name/[^\"]+\"" "$src" --include='*.c' --include='*.h' \
        --exclude-dir="build*" --exclude-dir=.git |
      grep -v "^$src/$folder/" | grep -vE "[\"/]$name/$header\"" || true)
if [ -n "$bad" ]; then
  echo "included from outside $folder/ (only $header is public):" >&2
  echo "$bad" >&2
  exit 1
fi
grep -rlE "#include \"([^\"]*/)?$name/$header\"" "$src" --include='*.c' --exclude-dir="build*" --exclude-dir=.git |
  sed "s|^$src/|includes $name/$header: |"
