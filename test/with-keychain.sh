#!/usr/bin/env bash
# Runs a command with a private D-Bus session and an unlocked, throwaway gnome-keyring, so
# keychain tests use the real Secret Service without touching anyone's real keyring.
# With SWITCHBOARD_NO_KEYCHAIN=1 (or no dbus-run-session) it runs the command as is.
set -eu
if [ "${SWITCHBOARD_NO_KEYCHAIN:-}" = "1" ] || ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
  echo "with-keychain: no dbus-run-session/gnome-keyring-daemon; keychain tests will report themselves skipped" >&2
  exec "$@"
fi
XDG_DATA_HOME="$(mktemp -d)"
export XDG_DATA_HOME
trap 'rm -rf "$XDG_DATA_HOME"' EXIT
# The command writes to this stderr directly (fd 3); dbus's own chatter ("Failed to set fd limit", services it
# activates) goes nowhere. No filter process: one in a process substitution is not waited for, and every server a test
# leaves running inherits its pipe, so vitest's failure report sat in its buffer and never reached the log.
dbus-run-session -- bash -c 'printf "test" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1 3>&-; export SWITCHBOARD_TEST_KEYCHAIN=1; exec "$@" 2>&3 3>&-' _ "$@" \
  3>&2 2>/dev/null
