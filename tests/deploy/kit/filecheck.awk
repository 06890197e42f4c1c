# filecheck.awk: the part of LLVM's FileCheck that the GPU check kit needs,
# in POSIX awk, because the machine the kit runs on has no LLVM.
#
#   awk -f filecheck.awk CHECKS OUTPUT
#
# CHECKS holds the test program's check lines ("// CHECK: ...", as in
# tests/upstream/*.mlir); OUTPUT is what the program printed. Exit 0 when
# the output matches, 1 with one line on stderr saying which check failed.
#
# Directives: CHECK, CHECK-NEXT, CHECK-SAME, CHECK-EMPTY, CHECK-NOT,
# CHECK-DAG, CHECK-LABEL (as CHECK), CHECK-COUNT-<n>. Patterns are literal
# text with {{regex}} parts (POSIX extended regular expressions), matched
# anywhere in a line, horizontal whitespace runs compared as one space, as
# FileCheck does by default. Unlike FileCheck, matching is line by line:
# each match consumes its line (CHECK-SAME looks at the rest of it), which
# is all the kit's programs need. No [[variables]]. Interval expressions
# ({n}, {m,n}) are expanded here, since some awks (mawk) lack them.

function fail(msg) {
  printf "filecheck: %s\n", msg > "/dev/stderr"
  failed = 1
  exit 1
}

# Escapes the ERE metacharacters of literal text.
function quote(s,    out, i, c) {
  out = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (index("\\^$.[]|()*+?{}", c))
      out = out "\\" c
    else
      out = out c
  }
  return out
}

# Where the regex atom that ends at position `end` of re starts: a (group),
# a [bracket], an escaped character or one character.
function atom_start(re, end,    depth, i, c) {
  c = substr(re, end, 1)
  if (c == ")") {
    depth = 0
    for (i = end; i >= 1; i--) {
      c = substr(re, i, 1)
      if (c == ")" && substr(re, i - 1, 1) != "\\") depth++
      if (c == "(" && substr(re, i - 1, 1) != "\\") { depth--; if (depth == 0) return i }
    }
    return 1
  }
  if (c == "]") {
    for (i = end - 1; i >= 1; i--)
      if (substr(re, i, 1) == "[" && substr(re, i - 1, 1) != "\\") return i
    return 1
  }
  if (end > 1 && substr(re, end - 1, 1) == "\\") return end - 1
  return end
}

# Rewrites X{m}, X{m,}, X{m,n} as repetitions of X.
function expand_intervals(re,    out, i, c, j, spec, m, n, parts, a, atom, k) {
  out = ""
  for (i = 1; i <= length(re); i++) {
    c = substr(re, i, 1)
    if (c == "\\") { out = out substr(re, i, 2); i++; continue }
    if (c == "{" && match(substr(re, i), /^\{[0-9]+(,[0-9]*)?\}/)) {
      spec = substr(re, i + 1, RLENGTH - 2)
      i += RLENGTH - 1
      a = atom_start(out, length(out))
      atom = substr(out, a)
      out = substr(out, 1, a - 1)
      if (split(spec, parts, ",") == 1) { m = parts[1] + 0; n = m }
      else { m = parts[1] + 0; n = parts[2] == "" ? -1 : parts[2] + 0 }
      for (k = 0; k < m; k++) out = out atom
      if (n < 0) out = out atom "*"
      else for (k = m; k < n; k++) out = out atom "?"
      continue
    }
    out = out c
  }
  return out
}

# A FileCheck pattern as an ERE.
function pattern_re(p,    re, lo, hi) {
  gsub(/[ \t]+/, " ", p)
  sub(/^ /, "", p)
  sub(/ $/, "", p)
  re = ""
  while ((lo = index(p, "{{")) > 0) {
    hi = index(substr(p, lo + 2), "}}")
    if (hi == 0) break
    re = re quote(substr(p, 1, lo - 1)) "(" expand_intervals(substr(p, lo + 2, hi - 1)) ")"
    p = substr(p, lo + 2 + hi + 1)
  }
  return re quote(p)
}

FILENAME == ARGV[1] {
  # A directive: CHECK[-KIND]: not preceded by a word character.
  if (!match($0, /(^|[^A-Za-z0-9_-])CHECK(-[A-Z]+(-[0-9]+)?)?:/)) next
  d = substr($0, RSTART, RLENGTH)
  rest = substr($0, RSTART + RLENGTH)
  sub(/^[^C]*CHECK/, "", d)
  sub(/:$/, "", d)
  kind = d == "" ? "CHECK" : substr(d, 2)
  count = 1
  if (kind ~ /^COUNT-[0-9]+$/) { count = substr(kind, 7) + 0; kind = "CHECK" }
  if (kind == "LABEL") kind = "CHECK"
  if (kind !~ /^(CHECK|NEXT|SAME|EMPTY|NOT|DAG)$/) fail("unknown directive CHECK-" kind)
  for (c = 0; c < count; c++) {
    nd++
    dkind[nd] = kind
    dtext[nd] = rest
    dre[nd] = pattern_re(rest)
  }
  next
}

{
  line = $0
  gsub(/[ \t]+/, " ", line)
  out[++nlines] = line
}

# Fails when a pending CHECK-NOT matches a line in [from, to].
function check_nots(from, to,    k, l) {
  for (k = 1; k <= nnot; k++)
    for (l = from; l <= to; l++)
      if (match(out[l], notre[k])) fail("CHECK-NOT: " nottext[k] " matched line " l ": " out[l])
  nnot = 0
}

END {
  if (failed) exit 1
  if (nd == 0) fail("no CHECK lines")
  last = 0  # line of the previous match
  tail = "" # what is left of that line after the match, for CHECK-SAME
  i = 1
  while (i <= nd) {
    k = dkind[i]
    if (k == "NOT") { nnot++; notre[nnot] = dre[i]; nottext[nnot] = dtext[i]; i++; continue }
    if (k == "DAG") {
      # A group of DAGs: each matches a line of its own, in any order, after
      # the previous match; what follows comes after the farthest of them.
      for (j = i; j <= nd && dkind[j] == "DAG"; j++) ;
      far = last; first = nlines + 1
      split("", used)
      for (g = i; g < j; g++) {
        for (l = last + 1; l <= nlines; l++)
          if (!(l in used) && match(out[l], dre[g])) break
        if (l > nlines) fail("CHECK-DAG: " dtext[g] ": no match after line " last)
        used[l] = 1
        if (l > far) far = l
        if (l < first) first = l
      }
      check_nots(last + 1, first - 1)
      last = far; tail = ""; i = j
      continue
    }
    if (k == "SAME") {
      if (last == 0 || !match(tail, dre[i])) fail("CHECK-SAME: " dtext[i] ": not on line " last)
      tail = substr(tail, RSTART + RLENGTH); i++
      continue
    }
    if (k == "EMPTY") {
      l = last + 1
      if (l > nlines || out[l] != "") fail("CHECK-EMPTY: line " l " is not empty")
      tail = ""
    } else if (k == "NEXT") {
      l = last + 1
      if (l > nlines) fail("CHECK-NEXT: " dtext[i] ": no line after line " last)
      if (!match(out[l], dre[i])) fail("CHECK-NEXT: " dtext[i] ": line " l " is: " out[l])
      tail = substr(out[l], RSTART + RLENGTH)
    } else {
      for (l = last + 1; l <= nlines; l++)
        if (match(out[l], dre[i])) break
      if (l > nlines) fail("CHECK: " dtext[i] ": no match after line " last)
      tail = substr(out[l], RSTART + RLENGTH)
    }
    check_nots(last + 1, l - 1)
    last = l; i++
  }
  check_nots(last + 1, nlines)
}
