# find_jsonschema.sh — sourced by the schema tests: sets $py to a python3 that can
# import jsonschema, or exits 77 (skipped). Debian's python3-jsonschema is for
# /usr/bin/python3; another python3 first on PATH may have its own.
py=
for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c 'import jsonschema' 2>/dev/null; then py=$candidate; break; fi
done
[ -n "$py" ] || { echo "python3-jsonschema is not installed"; exit 77; }
