# vm/verify's shared jq helpers, imported by verify-eval.jq and verify-text.jq
# (`import "verify-lib" as v;`, found with `jq -L vm`). Definitions only.
#
# Hex is converted here and nowhere else: the guest runner writes addresses as "0x..."
# strings (maps, siginfo, /proc/PID/status), the plugin and the audit as numbers, and the
# reports print numbers as "0x...".

# "0x1f" (or "1F") as a number.
def hexnum: ltrimstr("0x") | ascii_downcase | explode
	| map(if . >= 97 then . - 87 else . - 48 end) | reduce .[] as $d (0; . * 16 + $d);

# A number as lower-case hex digits, without "0x".
def hex_digits: [recurse(if . >= 16 then (. / 16 | floor) else empty end) | . % 16]
	| reverse | map("0123456789abcdef"[.:. + 1]) | join("");

# A number as "0x..." (null stays null).
def hex: if . == null then null else "0x" + hex_digits end;

# The mapping of a run's maps (as the runner read /proc/PID/maps) holding the run-time
# address $addr (a number), or null.
def map_at($maps; $addr):
	[$maps[]? | select($addr >= (.start | hexnum) and $addr < (.end | hexnum))] | first;

# The offset in the mapped file of $addr, inside the mapping $m.
def file_offset($m; $addr): $addr - ($m.start | hexnum) + ($m.offset | hexnum);

# A console line of the guest (vm/verify, step 5): {line, json} where json is the parsed
# object, or null when the line is not one JSON object.
def console_line: {line: ., json: ((try fromjson catch null) | if type == "object" then . else null end)};

# The guest's console output (the whole text) as console_line's, one per line ended by a
# newline (a last line cut short is dropped).
def console_lines: split("\n") | .[:-1][] | console_line;

# The console lines that are neither JSON objects nor blank, as harness problems.
def console_problems:
	[console_lines | select(.json == null and (.line | test("^[ \t\r\u000b\u000c]*$") | not))
	 | "console line that is not JSON: \(.line[0:120])"];
