#!/bin/sh
# precisions.am must list exactly what the files marked "@precisions normal"
# generate, with their rules: a file marked or unmarked without regenerating
# it would otherwise be built in the wrong set of precisions, or not at all.
cd "${srcdir:-.}" || exit 1
files=$(grep -rlE '@precisions normal [sdcz] ->' include src codelets tests | LC_ALL=C sort)
if ${PYTHON3:-python3} tools/codegen.py --automake $files | diff -u precisions.am -; then
    echo "PASS precisions.am lists the generated files of $(echo "$files" | wc -l) marked sources"
    echo "1 passed, 0 failed"
else
    echo "FAIL precisions.am is out of date: tools/codegen.py --automake \$(grep -rlE '@precisions normal [sdcz] ->' include src codelets tests) > precisions.am"
    echo "0 passed, 1 failed"
    exit 1
fi
