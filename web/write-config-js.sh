#!/bin/sh
# Writes the browser app's runtime configuration, /config.js, from the web container's environment:
#
#   window.__JOURNAL_CONFIG__ = {"newsletterUrl":...,"analytics":{"key":...,"host":...,"environment":...,"feedbackSurvey":...}};
#
# Usage: write-config-js.sh <output-path>
#
# The same object as lib/web-config.ts (which the Node entrypoint serves). Only the public variables named
# below are read, by name, so no server-side secret (PAYMENT_*, OBJECT_STORAGE_*, SESSION_SECRET, ...) can
# reach the browser whatever else the environment holds. Absent, empty or whitespace-only values are null.
# NEWSLETTER_URL and ANALYTICS_PUBLIC_HOST must be http(s) URLs, else null (a javascript: link never
# reaches the page). ANALYTICS_PUBLIC_FEEDBACK_SURVEY is kept only when ANALYTICS_PUBLIC_KEY is set and it
# has the form <surveyId>:<ratingQuestionId>:<textQuestionId>.
#
# Strings are escaped for JSON and for HTML script context: backslash, double quote, every control
# character, <, >, &, U+2028 and U+2029 become escapes, so "</script>" or "<!--" cannot end a script
# element. POSIX sh and awk only (busybox in nginx:alpine, dash, bash; gawk, mawk or busybox awk).
# Values are never printed.

set -eu

out=${1:?usage: write-config-js.sh <output-path>}
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT HUP INT TERM

# Byte-wise (LC_ALL=C): multi-byte UTF-8 passes through untouched except U+2028/U+2029.
LC_ALL=C awk '
function blank(v) { return v ~ ("^[" WS "]*$") }

function esc(s,    r, i, n, c, t) {
  r = ""
  n = length(s)
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (c == "\\") r = r "\\\\"
    else if (c == "\"") r = r "\\\""
    else if (c == "<") r = r "\\u003c"
    else if (c == ">") r = r "\\u003e"
    else if (c == "&") r = r "\\u0026"
    else if (c in CTRL) r = r sprintf("\\u%04x", CTRL[c])
    else if (c == "\342" && (t = substr(s, i + 1, 2)) == "\200\250") { r = r "\\u2028"; i += 2 }
    else if (c == "\342" && t == "\200\251") { r = r "\\u2029"; i += 2 }
    else r = r c
  }
  return r
}

function json(v) { return blank(v) ? "null" : "\"" esc(v) "\"" }

# An http(s) URL (scheme checked case-insensitively, surrounding whitespace ignored), else null.
function url(name,    v) {
  v = ENVIRON[name]
  if (blank(v)) return "null"
  if (tolower(v) !~ ("^[" WS "]*https?://[^" WS "]")) {
    printf "write-config-js: %s is not an http(s) URL; written as null\n", name > "/dev/stderr"
    return "null"
  }
  return json(v)
}

BEGIN {
  WS = " \t\n\r\f\v"
  for (i = 1; i < 32; i++) CTRL[sprintf("%c", i)] = i
  CTRL[sprintf("%c", 127)] = 127

  key = ENVIRON["ANALYTICS_PUBLIC_KEY"]
  survey = ENVIRON["ANALYTICS_PUBLIC_FEEDBACK_SURVEY"]
  part = "[^:" WS "]+"
  surveyJson = "null"
  if (!blank(survey)) {
    if (blank(key)) {
      print "write-config-js: ANALYTICS_PUBLIC_FEEDBACK_SURVEY needs ANALYTICS_PUBLIC_KEY; written as null" > "/dev/stderr"
    } else if (survey !~ ("^" part ":" part ":" part "$")) {
      print "write-config-js: ANALYTICS_PUBLIC_FEEDBACK_SURVEY is not <surveyId>:<ratingQuestionId>:<textQuestionId>; written as null" > "/dev/stderr"
    } else {
      surveyJson = json(survey)
    }
  }

  printf "window.__JOURNAL_CONFIG__ = {\"newsletterUrl\":%s,\"analytics\":{\"key\":%s,\"host\":%s,\"environment\":%s,\"feedbackSurvey\":%s}};\n",
    url("NEWSLETTER_URL"), json(key), url("ANALYTICS_PUBLIC_HOST"), json(ENVIRON["ANALYTICS_PUBLIC_ENVIRONMENT"]), surveyJson
}' >"$tmp"

chmod 0644 "$tmp"
mv -f "$tmp" "$out"
