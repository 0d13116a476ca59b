# Sourced by ./run and ./test: make .venv from nothing and keep it in step with pyproject.toml.
# A stamp file holds a hash of pyproject.toml and the extras installed, so an unchanged
# project starts without touching pip at all.
set -euo pipefail

bootstrap() {
    local extras="$1"
    local root
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    local venv="$root/.venv"
    local py=""
    for candidate in python3.11 python3 python; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            py="$candidate"
            break
        fi
    done
    if [ -z "$py" ]; then
        echo "error: Python 3.11 or newer is needed (tried python3.11, python3, python)" >&2
        exit 1
    fi
    if [ ! -x "$venv/bin/python" ]; then
        echo "Creating $venv ..." >&2
        "$py" -m venv "$venv"
    fi
    # The stamp holds one line per set of extras installed for this pyproject.toml; the
    # test extras include everything ./run needs, so ./run after ./test installs nothing
    # (and neither does ./test after ./run once the test extras are in).
    local hash
    hash="$(sha256sum < "$root/pyproject.toml" | cut -c1-16)"
    local want="$hash-$extras"
    local stamp="$venv/.tofs-installed"
    if [ -f "$stamp" ] && ! grep -q -- "^$hash-" "$stamp"; then
        rm -f "$stamp"  # pyproject.toml changed: every earlier install is stale
    fi
    if [ ! -f "$stamp" ] || ! { grep -qx -- "$want" "$stamp" ||
        { [ "$extras" = base ] && grep -qx -- "$hash-test" "$stamp"; }; }; then
        echo "Installing the project into $venv ($extras) ..." >&2
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
        local spec="$root"
        if [ "$extras" != "base" ]; then spec="$root[$extras]"; fi
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$spec"
        echo "$want" >> "$stamp"
    fi
    VENV_PYTHON="$venv/bin/python"
    export VENV_PYTHON
}
