"""Every browser test waits for the state it needs for as long as a loaded machine takes: an
expect() or an action waits up to WAIT_MS (Playwright's own 5 s default ran out under load, twice,
in Picture-Puzzle tests whose state had not yet arrived), and a test that reads a value from the
page waits for it with expect() first instead of reading it at once."""

from playwright.sync_api import expect

WAIT_MS = 30_000

expect.set_options(timeout=WAIT_MS)
