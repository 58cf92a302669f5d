# One automake-style line per file of a vm/verify JSON report (PASS: confirmed and nothing
# contradicted, FAIL: something contradicted, SKIP: nothing exercised), then the count.
(.files[]
 | (.path | split("/") | .[-2:] | join("/")) as $name
 | [.checks[] | .result] as $results
 | if any($results[]; . == "contradicted") then
     "FAIL: vm-verify \($name): " + ([.checks[] | select(.result == "contradicted") | .check] | join(", "))
   elif any($results[]; . == "confirmed") then "PASS: vm-verify \($name)"
   else "SKIP: vm-verify \($name) (nothing exercised)" end),
"check-vm-verify: \(.summary.confirmed) passed, \(.summary.contradicted) failed, \(.summary.not_exercised) not exercised, \(.summary.harness_problems) harness problems"
